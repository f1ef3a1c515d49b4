import os
import sys

import pytest

# The project's package lives in mininet/; Debian's mininet stays importable
# because mininet/ itself has no __init__.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


@pytest.fixture
def root():
    """Mininet needs root; the test command runs as root, so absence is an error."""
    if os.geteuid() != 0:
        pytest.fail("Mininet tests need root (run ./fairfabric test as root)")
