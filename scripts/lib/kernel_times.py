"""What the measurement scripts read back from `filter-bench run --json-file` (imported by their inline Python,
with scripts/lib on sys.path)."""
import json


def best_kernel_ms(paths):
    """(filter, variant) -> (the shortest kernel median over the runs' JSON files, that run's `matches`);
    files that are missing or unreadable are skipped."""
    best = {}
    for path in paths:
        try:
            results = json.load(open(path))['results']
        except (OSError, ValueError, KeyError):
            continue
        for x in results:
            ms, k = (x.get('kernel_ms') or {}).get('median'), (x['filter'], x['variant'])
            if ms and (k not in best or ms < best[k][0]):
                best[k] = (ms, x.get('matches'))
    return best
