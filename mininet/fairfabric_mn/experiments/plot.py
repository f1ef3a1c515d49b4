"""matplotlib set-up shared by the experiments' figures (no display: Agg)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def figure(ncols=1, width=6.4, height=4.2):
    fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), squeeze=False)
    return fig, list(axes[0])


def caption(fig, result):
    """The machine's load under the figure: every number here was measured on a shared, loaded host."""
    env = result.doc["environment"]
    fig.text(0.01, -0.02, "%s; %d CPUs, load average %.1f at start, %.1f at end; commit %s%s"
             % (env["started_utc"], env["host_cpus"], env["loadavg_start"][0], env["loadavg_end"][0],
                env["commit"], "; --quick" if result.doc["quick"] else ""),
             fontsize=7, color="0.35", ha="left", va="top")
