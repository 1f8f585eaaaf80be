"""measure_env: read measure-ram's key=value files, shared by the report
renderers (measure-audit-render.py, measure-serve-render.py)."""


def load_env(path):
    """key=value lines of path as a dict (lines without "=" are skipped)."""
    d = {}
    with open(path) as f:
        for line in f:
            k, sep, v = line.rstrip("\n").partition("=")
            if sep:
                d[k] = v
    return d


def num(v):
    """int(v), or None when v is missing or not a whole number."""
    try:
        return int(v)
    except (TypeError, ValueError):
        return None
