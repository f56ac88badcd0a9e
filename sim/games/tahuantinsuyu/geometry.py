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


# The corridor-shaped map (robustness table map-corridor): published descriptions call the board "long
# and thin" along the coast, a "skinny corridor" (NOTES.md). The same regions and sites in rows from the
# north (Chinchaysuyu) to the south (Collasuyu), four regions wide at most, with Cuntisuyu on the coast
# side and Antisuyu on the inland side of the middle rows round Cuzco; no outer ring runs round.
CORRIDOR_ROWS = (
    ("C12", "C13", "C14"),
    ("C08", "C09", "C10", "C11"),
    ("C04", "C05", "C06", "C07"),
    ("C01", "C02", "C03", "A09"),
    ("K01", "C00", "A01", "A10"),
    ("K02", "K00", "A00", "A02"),
    ("K03", "Q00", "A03", "A04"),
    ("K04", "K05", "Q01", "A05"),
    ("K06", "Q02", "Q03", "A06"),
    ("K07", "Q04", "Q05", "A07"),
    ("K08", "Q06", "Q07", "A08"),
    ("K09", "Q08", "Q09"),
    ("Q10", "Q11", "Q12"),
)
CORRIDOR_CUZCO_ROW = 5  # Cuzco (0, 0) lies on this row, between the starting regions
CORRIDOR_WIDTH = 4.0


def corridor_map(p: dict[str, Any]) -> dict[str, Any]:
    """The corridor's map keys (borders, roads, layout, xy, wilderness_pairs) for p's regions and
    sites: regions border their neighbours in a row and the overlapping ones in the next row; the
    lines inside a region stay as in p; one line crosses each border (from the site of each region
    with the fewest lines so far), none between two starting regions."""
    layout, span = {}, {}
    for y, row in enumerate(CORRIDOR_ROWS):
        n = len(row)
        for i, r in enumerate(row):
            lo, hi = i * CORRIDOR_WIDTH / n - CORRIDOR_WIDTH / 2, (i + 1) * CORRIDOR_WIDTH / n - CORRIDOR_WIDTH / 2
            layout[r] = [round((lo + hi) / 2, 3), float(CORRIDOR_CUZCO_ROW - y)]
            span[r] = (y, i, lo, hi)
    regions = _names(p["region"])
    assert sorted(layout) == sorted(regions), "every region in one corridor row"
    borders = []
    for a in regions:
        for b in regions:
            if regions.index(a) >= regions.index(b):
                continue
            ya, ia, la, ha = span[a]
            yb, ib, lb, hb = span[b]
            if (ya == yb and abs(ia - ib) == 1) or (abs(ya - yb) == 1 and min(ha, hb) - max(la, lb) > 1e-9):
                borders.append([a, b])
    reg = {s: p["site"][s]["region"] for s in _names(p["site"])}
    inside = [list(x) for x in p["map"]["roads"] if reg[x[0]] == reg[x[1]]]
    degree = {s: 0 for s in reg}
    for a, b in inside + [list(x) for x in p["map"]["royal_roads"]]:
        degree[a] += 1
        degree[b] += 1
    roads = list(inside)
    for a, b in borders:
        if p["region"][a]["start"] and p["region"][b]["start"]:
            continue
        sa, sb = _facing(reg, layout, degree, a, b), _facing(reg, layout, degree, b, a)
        roads.append([sa, sb])
        degree[sa] += 1
        degree[sb] += 1
    q = dict(p)
    q["map"] = dict(p["map"], borders=borders, roads=roads, layout=layout)
    q["map"]["xy"] = place_sites(q, layout, seed=1, steps=150)
    q["map"]["wilderness_pairs"] = wilderness_pairs(q)
    return q["map"]


def _facing(reg, layout, degree, a, b):
    """The site of region a for the line toward region b: a's sites take evenly spaced directions
    round its centre (in site order, the first to the north); the one facing b, a site with fewer
    lines preferred on a near tie."""
    members = [s for s in reg if reg[s] == a]
    to_b = math.atan2(layout[b][1] - layout[a][1], layout[b][0] - layout[a][0])

    def cost(j):
        d = abs((2 * math.pi * j / len(members) + math.pi / 2 - to_b + math.pi) % (2 * math.pi) - math.pi)
        return d + 0.3 * degree[members[j]]
    return members[min(range(len(members)), key=cost)]


def corridor_variant(p: dict[str, Any]) -> str:
    """variants/robust/tahuantinsuyu-map-corridor.toml (regenerate with
    `python -c "from sim.games.tahuantinsuyu import data, geometry as g; print(g.corridor_variant(data.default_components()), end='')" > variants/robust/tahuantinsuyu-map-corridor.toml`)."""
    m = corridor_map(p)
    q = dict(p)
    q["map"] = m
    head = [
        "# Robustness table for Tahuantinsuyu (sim robust tahuantinsuyu): the map, reading \"map-corridor\".",
        "#",
        "# The published board is not public; reviews call it \"long and thin\" along the coast (gamersalliance.com,",
        "# Levy) and a \"skinny corridor\" (marcadelic.blogspot.com, 2007/10) (NOTES.md), where the base map is a",
        "# ring round Cuzco with an outer ring running round. This map: the same regions, sites, chips and lines",
        "# inside each region, laid in rows from north (Chinchaysuyu) to south (Collasuyu), at most four regions",
        "# wide (geometry.CORRIDOR_ROWS): Cuntisuyu on the coast side and Antisuyu inland beside Cuzco; regions",
        "# border their row neighbours and the overlapping regions of the next row, one dashed line across each",
        "# border but those between starting regions; the drawing and its Wilderness Road pairs derived as for the",
        f"# base map ({len(crossing_lines(q))} pair of lines still crosses). Generated by geometry.corridor_variant.",
        'name = "map-corridor"',
        "[map]",
        "borders = [",
    ] + [f'  ["{a}", "{b}"],' for a, b in m["borders"]] + ["]", "roads = ["]
    head += [f'  ["{a}", "{b}"],' for a, b in m["roads"]] + ["]"]
    return "\n".join(head) + "\n" + map_toml(q)


def regenerate_base(path) -> None:
    """Rewrite components.toml's map.wilderness_pairs, map.layout and map.xy from its regions, sites
    and lines (ring_layout, place_sites seed 1, wilderness_pairs), when the base map changes:
    `python -c "from sim.games.tahuantinsuyu import geometry as g, data; g.regenerate_base(data.COMPONENTS_FILE)"`."""
    import re
    from .data import default_components
    from pathlib import Path
    path = Path(path)
    text = path.read_text()
    block = re.compile(r"wilderness_pairs = \[\n(?:  .*\n)*\]\n\[map\.layout\]\n(?:.*\n)*?\[map\.xy\]\n(?:.*\n)*?"
                       r"(?=\[map\.source\])")
    p = default_components()
    p["map"]["layout"] = ring_layout(p)
    p["map"]["xy"] = place_sites(p, p["map"]["layout"], seed=1, steps=150)
    path.write_text(block.sub(lambda _: map_toml(p), text, count=1))
