"""The names of the World's resources (its world-wide values), each defined once.

A resource is read with `world.resource(KEY)` and written with `world.set_resource(KEY, v)`,
which journals it like any component write.
"""

from __future__ import annotations

SIZE_KEY = "size"  # (width, height) of the board
TURN_KEY = "turn_entity"  # the entity holding the Turn component (rulesets of sides)
RULES_KEY = "rules"  # tuple of rule strings in force, e.g. ("ROCK IS STOP",)
PROPS_KEY = "props"  # dict kind -> Prop (a fresh dict each time it changes)
BASE_KEY = "base_rules"  # the ruleset's rules that hold without words
KINDS_KEY = "kinds"  # kind -> ids of the things of that kind, in id order
HASH_KEY = "zhash"  # the board's incremental Zobrist hash
FALLEN_KEY = "fallen_prizes"  # skirmish: sides that lost a WIN unit or building, in order
SPAWN_CELLS_KEY = "spawn_cells"  # {side: [cells marked on the map]}
STATUS_KEY = "status"  # puzzle: '' while playing, 'won' or 'lost'
SETTLED_KEY = "settled"  # puzzle: True once a turn has resolved every cell's meetings
BALL_KEY = "ball"  # descent: the ball's entity
EXIT_KEY = "exit"  # descent: (x, y) of the exit
COST_KEY = "last_cost"  # descent: what the last step cost (move or push)
