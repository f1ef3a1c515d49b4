"""Weighted max-min fair rates by progressive filling (water-filling), for single-path sessions:
every unfrozen session's rate grows in proportion to its weight until a link fills; the
sessions through a full link freeze. Written here so that the experiments compare the
allocator's PF with an independent max-min, not with the allocator itself."""


def weighted_maxmin(problem):
    """{session id: rate} for problem (the allocator's JSON input; one path per session)."""
    cap = {l["id"]: float(l["capacity"]) for l in problem["links"]}
    paths, weight = {}, {}
    for s in problem["sessions"]:
        if len(s["paths"]) != 1:
            raise ValueError("sessions[%s]: max-min here is for single-path sessions" % s["id"])
        paths[s["id"]] = s["paths"][0]
        weight[s["id"]] = float(s.get("weight", 1))
    rate = {i: 0.0 for i in paths}
    frozen = set()
    while len(frozen) < len(paths):
        # the level increment t at which the first link fills: sum of w_i * t over its unfrozen sessions
        best = None
        for e, c in cap.items():
            free = [i for i in paths if e in paths[i] and i not in frozen]
            if not free:
                continue
            used = sum(rate[i] for i in paths if e in paths[i])
            t = (c - used) / sum(weight[i] for i in free)
            if best is None or t < best:
                best = t
        for i in paths:
            if i not in frozen:
                rate[i] += weight[i] * best
        for e, c in cap.items():
            if sum(rate[i] for i in paths if e in paths[i]) >= c * (1 - 1e-12):
                frozen.update(i for i in paths if e in paths[i])
    return rate
