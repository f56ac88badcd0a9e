"""Names for the report's card tables (sim.analysis.cards.item_names): Cuzco's missions have no
printed names, only numbers (the addendum's S-01..S-06 and 01..55), so a mission id (`m05`, the
players table's column suffix, sim/games/cuzco/data.py mission_labels) is shown with what it asks
for, read from the dataset's own parameters ("m05: 4 feather colours")."""
from __future__ import annotations

from typing import Any

from ..data import RINGS, mission_labels
from ..state import ABILITY_NAMES, COLOUR_NAMES, GOD_NAMES, GOOD_NAMES

# The requirement kinds whose argument is an index, and the names it indexes.
_ARGUMENT_NAMES = {"feathers_of_colour": COLOUR_NAMES, "villages_of_colour": COLOUR_NAMES,
                   "villages_in_ring": RINGS, "goods_of_type": GOOD_NAMES, "gods_of": GOD_NAMES,
                   "people_with_ability": ABILITY_NAMES}


def requirement_text(kind: str, n: int, arg: int) -> str:
    """One requirement [kind, n, arg] in words: '3 feathers of colour (pink)', '3 villages worth 2 VP'."""
    text = f"{n} {kind.replace('_', ' ')}"
    names = _ARGUMENT_NAMES.get(kind)
    if names is not None:
        return f"{text} ({names[arg] if 0 <= arg < len(names) else arg})".replace("_", " ")
    if kind == "villages_worth":
        return f"{text} {arg} VP"
    return text


def item_names(ds) -> dict[str, dict[str, str]]:
    """{"mission": {id: what it asks for}} from the dataset's parameters ({} without them)."""
    params: dict[str, Any] = ds.manifest.get("params") or {}
    missions = params.get("missions")
    if not missions:
        return {}
    requirements = list(missions.get("starting", [])) + list(missions.get("general", []))
    return {"mission": {label: " + ".join(requirement_text(str(k), int(n), int(a)) for k, n, a in mission)
                        for label, mission in zip(mission_labels(params), requirements)}}
