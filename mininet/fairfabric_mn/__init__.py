"""fairfabric's Mininet side: switch classes, topologies and experiment drivers.

Import it with ``mininet/`` on ``sys.path`` (the project's .venv does this); the
directory ``mininet/`` itself is deliberately not a package, so that
``import mininet`` still finds Debian's Mininet.
"""
