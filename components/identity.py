"""What a thing is: the noun rules refer to, and the text of word tiles."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Kind:
    """The noun a thing answers to in rules: hero, minion, tower, hq, rock, water, text..."""

    name: str


@dataclass(slots=True)
class Word:
    """A word tile: its text (upper case) and part of speech (noun, operator, property)."""

    text: str
    part: str
