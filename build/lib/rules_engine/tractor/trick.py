"""Who wins a tractor trick.

Only a play in exactly the led form can beat the lead: the same suit with a higher top,
or trumps (a kill) — higher trumps override a kill (盖杀). The special rule lets two
consecutive triples beat three consecutive pairs. Equal plays leave the trick with the
earlier one. A throw is beaten only by a kill in its shape; kills of a throw compare by
the highest card among their biggest units.
"""

from __future__ import annotations

from collections import Counter

from rules_engine.cards import Card
from rules_engine.errors import RulesError
from rules_engine.i18n import t
from rules_engine.tractor.follow import is_kill, lead_suit, special_beats
from rules_engine.tractor.forms import form_of, shape_of, suit_of_cards
from rules_engine.tractor.order import TRUMP, Ordering


def _strength(play: list[Card], ordering: Ordering) -> int:
    copies = Counter(play)
    biggest_unit = max(copies.values())
    return max(ordering.position(card) for card, n in copies.items() if n == biggest_unit)


def trick_winner(ordering: Ordering, plays: list[list[Card]], kill_reading: str = "strict") -> int:
    """Index (0 = the leader) of the play that wins the trick."""
    if not plays or any(len(play) != len(plays[0]) for play in plays):
        raise RulesError(t("every play of a trick has as many cards as the lead"), "plays")
    lead = plays[0]
    suit = lead_suit(lead, ordering)
    lead_form, lead_shape = form_of(lead, ordering), shape_of(lead, ordering)
    best, best_key = 0, (suit == TRUMP, False, _strength(lead, ordering))
    for index, play in enumerate(plays[1:], start=1):
        play_suit = suit_of_cards(play, ordering)
        special = special_beats(form_of(play, ordering), lead_form)
        if play_suit == suit:
            matches = lead_form is not None and (shape_of(play, ordering) == lead_shape or special)
        else:
            matches = play_suit == TRUMP and is_kill(play, lead, ordering, kill_reading)
        key = (play_suit == TRUMP, special, _strength(play, ordering))
        if matches and key > best_key:
            best, best_key = index, key
    return best
