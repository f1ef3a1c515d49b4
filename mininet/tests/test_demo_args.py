"""The demo's own arguments: bad values are refused with the expected form named, before anything starts."""

import argparse

import pytest

from fairfabric_mn.demo import headroom, parse_reweight


@pytest.mark.parametrize("text, value", [("0", 0.0), ("0.03", 0.03), (".5", 0.5)])
def test_headroom_accepts_a_fraction_up_to_a_half(text, value):
    assert headroom(text) == value


@pytest.mark.parametrize("text", ["-0.1", "0.6", "3%", "", "nan"])
def test_headroom_refuses_anything_else(text):
    with pytest.raises(argparse.ArgumentTypeError, match="--headroom is a fraction from 0 to 0.5"):
        headroom(text)


@pytest.mark.parametrize("text, want", [("amber=4@20", ("amber", 4, 20.0)), ("violet=1@0.5", ("violet", 1, 0.5))])
def test_reweight_is_tenant_weight_at_seconds(text, want):
    assert parse_reweight(text) == want


@pytest.mark.parametrize("text", ["amber=4", "amber@20", "amber=x@20"])
def test_reweight_refuses_other_forms(text):
    with pytest.raises(argparse.ArgumentTypeError, match="TENANT=WEIGHT@SECONDS"):
        parse_reweight(text)
