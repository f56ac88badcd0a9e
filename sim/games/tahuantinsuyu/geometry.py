"""Tahuantinsuyu's reconstructed map geometry: where the sites lie, so that Wilderness Road's "does
not cross an existing road or a planned road route" can be checked on straight lines.

The published board is not public (README "The map"). Each region has a reconstructed centre
(`map.layout`, in board units, Cuzco at 0, 0); a region's sites lie on a small circle round it, in
the order `site` lists them; every dashed line (and royal line) is the straight segment between its
two sites. A Wilderness Road pair (`map.wilderness_pairs`) is two sites that can hold a city (city,
significant city, or a garrison site a Key Outpost can turn into one) whose straight segment crosses
no dashed line, passes through no other site, and is not itself a dashed line. `ring_layout` gives the
base map's centres from the rings the README describes; the tests check that the data's pairs are
the ones these functions derive (`wilderness_pairs`).
"""
from __future__ import annotations

import math
from typing import Any

SITE_RADIUS = 0.3  # a region's sites lie on a circle this far from its centre
MOVE_RADIUS = 0.45  # how far the drawing may move a site from its region centre (place_sites)
CITY_KINDS = ("city", "significant_city", "garrison")
SCALE = 1000  # the engine holds coordinates as integers (board units x SCALE)
QUADRANT_START = {"chinchaysuyu": 180.0, "antisuyu": 90.0, "collasuyu": 0.0, "cuntisuyu": -90.0}


def _names(table: dict[str, Any]) -> list[str]:
    return [k for k in table if k != "source"]


def ring_layout(p: dict[str, Any]) -> dict[str, list[float]]:
    """The base map's region centres: each suyu a quarter round Cuzco (Chinchaysuyu north-west,
    then clockwise Antisuyu, Collasuyu, Cuntisuyu), ring k at radius 0.8 + k, a ring's regions of a
    suyu in file order clockwise, each an equal share of the quarter."""
    regions = _names(p["region"])
    out = {}
    for suyu, start in QUADRANT_START.items():
        rows: dict[int, list[str]] = {}
        for r in regions:
            if p["region"][r]["suyu"] == suyu:
                rows.setdefault(p["region"][r]["ring"], []).append(r)
        for ring, members in rows.items():
            n = len(members)
            for i, r in enumerate(members):
                angle = math.radians(start - (i + 0.5) * 90.0 / n)
                radius = 0.8 + ring
                out[r] = [round(radius * math.cos(angle), 3), round(radius * math.sin(angle), 3)]
    return out


def site_xy(p: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Each site's point (`map.xy`, reconstructed; Cuzco at 0, 0)."""
    return {s: tuple(v) for s, v in p["map"]["xy"].items() if s != "source"}


def map_toml(p: dict[str, Any]) -> str:
    """`map.wilderness_pairs`, `map.layout` and `map.xy` of p written as TOML (the lines the data
    files hold, regenerated with place_sites and wilderness_pairs when the map changes)."""
    out = ["wilderness_pairs = ["] + [f'  ["{a}", "{b}"],' for a, b in wilderness_pairs(p)] + ["]"]
    out += ["[map.layout]"] + [f"{r} = [{x}, {y}]" for r, (x, y) in p["map"]["layout"].items()]
    out += ["[map.xy]"] + [f"{s} = [{x}, {y}]" for s, (x, y) in p["map"]["xy"].items()]
    return "\n".join(out) + "\n"


def _orient(a, b, c) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_cross(a, b, c, d) -> bool:
    """Segments ab and cd cross (a shared end point is no crossing; touching counts)."""
    if a in (c, d) or b in (c, d):
        return False
    o1, o2, o3, o4 = _orient(a, b, c), _orient(a, b, d), _orient(c, d, a), _orient(c, d, b)
    return (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0) or 0 in (o1, o2, o3, o4) and _touch(a, b, c, d)


def _touch(a, b, c, d) -> bool:
    def on(p, q, r):
        return (_orient(p, q, r) == 0 and min(p[0], q[0]) <= r[0] <= max(p[0], q[0])
                and min(p[1], q[1]) <= r[1] <= max(p[1], q[1]))
    return on(a, b, c) or on(a, b, d) or on(c, d, a) or on(c, d, b)


def _near_segment(a, b, s, eps) -> bool:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((s[0] - ax) * dx + (s[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(ax + t * dx - s[0], ay + t * dy - s[1]) < eps


def lines(p: dict[str, Any]) -> list[tuple[str, str]]:
    return [tuple(x) for x in p["map"]["roads"] + p["map"]["royal_roads"]]


def crossing_pairs(ls, xy):
    return [(ls[i], ls[j]) for i in range(len(ls)) for j in range(i + 1, len(ls))
            if segments_cross(xy[ls[i][0]], xy[ls[i][1]], xy[ls[j][0]], xy[ls[j][1]])]


def crossing_lines(p: dict[str, Any]) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Pairs of dashed lines that cross on the reconstructed layout (a check of the layout: a
    faithful drawing has none)."""
    return crossing_pairs(lines(p), site_xy(p))


def wilderness_pairs(p: dict[str, Any]) -> list[tuple[str, str]]:
    """Every pair of city-holding sites whose straight road crosses no dashed line, passes through no
    other site and is no dashed line itself (site order, first < second)."""
    xy = site_xy(p)
    sites = _names(p["site"])
    cities = [s for s in sites if p["site"][s]["kind"] in CITY_KINDS]
    ls = lines(p)
    joined = {frozenset(x) for x in ls}
    out = []
    for i, a in enumerate(cities):
        for b in cities[i + 1:]:
            if frozenset((a, b)) in joined:
                continue
            pa, pb = xy[a], xy[b]
            if any(segments_cross(pa, pb, xy[c], xy[d]) for c, d in ls):
                continue
            if any(_near_segment(pa, pb, xy[s], 0.05) for s in sites if s not in (a, b)):
                continue
            out.append((a, b))
    return out


def place_sites(p: dict[str, Any], layout: dict[str, list[float]], seed: int = 1,
                steps: int = 4000) -> dict[str, list[float]]:
    """How `map.xy` was drawn (reconstructed): each site on its region's circle toward the regions
    its lines lead to (a site with lines inside its region only, opposite them), then moved at
    random within its region (at most SITE_RADIUS from the centre) while that lowers the count of
    crossing lines, until none cross (a planar drawing of the lines, as on a printed board)."""
    import random
    rng = random.Random(seed)
    sites = _names(p["site"])
    reg = {s: p["site"][s]["region"] for s in sites}
    ls = lines(p)

    def cen(s):
        return (0.0, 0.0) if reg[s] == "" else tuple(layout[reg[s]])

    by_region: dict[str, list[str]] = {}
    for s in sites:
        by_region.setdefault(reg[s], []).append(s)
    xy: dict[str, tuple[float, float]] = {}
    for r, members in by_region.items():
        if r == "":
            for s in members:
                xy[s] = (0.0, 0.0)
            continue
        c = layout[r]
        angle: dict[str, float | None] = {}
        for s in members:
            vx = vy = 0.0
            for a, b in ls:
                if s in (a, b):
                    o = b if a == s else a
                    if reg[o] != r:
                        oc = cen(o)
                        d = math.hypot(oc[0] - c[0], oc[1] - c[1])
                        vx += (oc[0] - c[0]) / d
                        vy += (oc[1] - c[1]) / d
            angle[s] = math.atan2(vy, vx) if (vx or vy) else None
        known = [a for a in angle.values() if a is not None]
        for s in members:
            a = angle[s]
            if a is None:
                a = math.atan2(-sum(math.sin(k) for k in known), -sum(math.cos(k) for k in known)) if known else 0.0
            xy[s] = (round(c[0] + SITE_RADIUS * math.cos(a), 3), round(c[1] + SITE_RADIUS * math.sin(a), 3))

    def crossings_at(s):
        n = 0
        for a, b in ls:
            if s not in (a, b):
                continue
            for c, d in ls:
                if segments_cross(xy[a], xy[b], xy[c], xy[d]):
                    n += 1
        return n

    for _ in range(steps):
        bad = sorted({x for pair in crossing_pairs(ls, xy) for line in pair for x in line if reg[x] != ""})
        if not bad:
            break
        for s in bad:
            c = layout[reg[s]]
            old, before = xy[s], crossings_at(s)
            a, rho = rng.uniform(0, 2 * math.pi), rng.uniform(0.1, MOVE_RADIUS)
            xy[s] = (round(c[0] + rho * math.cos(a), 3), round(c[1] + rho * math.sin(a), 3))
            if crossings_at(s) > before or any(math.hypot(xy[s][0] - xy[t][0], xy[s][1] - xy[t][1]) < 0.08
                                               for t in by_region[reg[s]] if t != s):
                xy[s] = old
    return {s: list(xy[s]) for s in sites}
