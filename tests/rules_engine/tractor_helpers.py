"""Shorthands for the tractor tests: trump spades, level 5 unless told otherwise."""

from rules_engine.cards import parse_cards
from rules_engine.tractor import Ordering, check_follow

SPADES_FIVE = Ordering("S", "5")


def cards(*texts: str) -> list:
    return parse_cards(list(texts), 3)


def follow(hand: str, lead: str, play: str, ordering: Ordering = SPADES_FIVE) -> dict:
    return check_follow(ordering, cards(*hand.split()), cards(*lead.split()), cards(*play.split()))
