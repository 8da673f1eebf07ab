"""Where an installed wheel keeps data/ and maps/ (mapped here by setup.py).

In a checkout this folder holds only this file: the game reads the top-level data/ and maps/
folders instead (see game/__init__.py).
"""
