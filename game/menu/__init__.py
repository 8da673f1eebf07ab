"""The title menu both clients share: game/menu/model.py (rows, views, launches),
controller.py (state and input), pages.py (the kinds of page)."""
