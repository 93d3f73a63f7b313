"""Following (跟牌) and killing (杀牌) in tractor (SPEC 4.3, seed 三.2(4) and 三.4).

A follower plays as many cards as were led. Suit first: while holding cards of the led
suit (trump counts as one suit), play them; holding fewer than were led, play them all and
add any cards. Holding more, the cards of the led suit must also answer the lead's
structure as well as the hand allows, in this priority order (the seed's):

* a pair is answered by a pair (a triple must be broken for it);
* a triple by a triple, else by a pair;
* a tractor of pairs by a tractor, else by loose pairs. A triple need not be played
  whole: holding enough loose pairs, the follower may play them; but a triple must give a
  pair when loose pairs are short, and must give its pair to a tractor when it joins
  other pairs into one (the two exceptions about triples);
* a tractor of two triples (3+3) by: a. two triples (consecutive ones first), b. a triple,
  a pair and a single, c. a triple and singles, d. a tractor of pairs and singles, e. two
  loose pairs and singles, f. a pair and singles, g. singles.

All of this is one rule: the shape of the followed cards (:func:`forms.shape_of` with the
lead's triple and pair units as caps, every triple that cannot be matched answerable by a
pair) must be the best shape the hand's cards of that suit allow. A throw (甩牌) is
followed the same way, unit by unit.

A follower void in the led suit may play anything; trumps in exactly the led form are a
kill (杀牌), otherwise the cards count as a follow and cannot win. The one special rule:
a tractor of two triples beats a tractor of three pairs, so trumps in that form also kill
it.
"""

from __future__ import annotations

from rules_engine.cards import Card, cards_text, check_in_hand
from rules_engine.errors import RulesError
from rules_engine.i18n import t
from rules_engine.tractor.forms import Form, Shape, form_of, shape_of, suit_of_cards
from rules_engine.tractor.order import SUIT_NAMES, TRUMP, Ordering


def lead_caps(lead: list[Card], ordering: Ordering) -> tuple[int, int]:
    """(triple units, pair units) a follower has to answer for this lead."""
    shape = shape_of(lead, ordering)
    return sum(shape.triples), sum(shape.pairs)


def special_beats(play: Form | None, lead: Form | None) -> bool:
    """The one special rule: two consecutive triples beat three consecutive pairs."""
    return (
        play is not None
        and lead is not None
        and (play.unit, play.length) == (3, 2)
        and (lead.unit, lead.length) == (2, 3)
    )


KILL_READINGS = ("strict", "flexible")


def is_kill(
    play: list[Card], lead: list[Card], ordering: Ordering, kill_reading: str = "strict"
) -> bool:
    """Trumps in exactly the led form (or the special 3+3 against three pairs).

    A throw's kill is read by the preset's ``kill_reading``: ``"strict"`` (seed 三.4 完全一致:
    the trumps have the throw's shape as played) or ``"flexible"`` (the trumps can be laid
    out as the throw's units: a trump triple may stand for a pair and a single)."""
    if ordering.suit_of(lead[0]) == TRUMP or suit_of_cards(play, ordering) != TRUMP:
        return False
    lead_shape = shape_of(lead, ordering)
    if shape_of(play, ordering) == lead_shape:
        return True
    lead_form = form_of(lead, ordering)
    if kill_reading == "flexible" and lead_form is None and len(play) == len(lead):
        triple_cap, pair_cap = sum(lead_shape.triples), sum(lead_shape.pairs)
        laid_out = shape_of(play, ordering, triple_cap, pair_cap)
        return laid_out.rank == lead_shape.rank
    return special_beats(form_of(play, ordering), lead_form)


def lead_suit(lead: list[Card], ordering: Ordering) -> str:
    if not lead:
        raise RulesError(t("lead is empty: give the cards that were led"), "lead")
    suit = suit_of_cards(lead, ordering)
    if suit is None:
        raise RulesError(
            t(
                "lead {cards} mixes suits: a lead is all of one suit (trump is one suit)",
                cards=cards_text(lead),
            ),
            "lead",
        )
    return suit


def check_follow(
    ordering: Ordering,
    hand: list[Card],
    lead: list[Card],
    play: list[Card],
    kill_reading: str = "strict",
) -> dict:
    """Rule on one follow; ``hand`` is the follower's whole hand before it."""
    suit = lead_suit(lead, ordering)
    check_in_hand(play, hand)
    suit_name = SUIT_NAMES[suit]
    answer = {"lead_form": _lead_text(lead, ordering), "kill": False}
    if len(play) != len(lead):
        return answer | _illegal(
            t("{count} cards were led, so {count} must be played", count=len(lead))
        )
    held = [card for card in hand if ordering.suit_of(card) == suit]
    followed = [card for card in play if ordering.suit_of(card) == suit]
    if not held:
        kill = is_kill(play, lead, ordering, kill_reading)
        reason = (
            t("a kill: trumps in the led form")
            if kill
            else t("void in {suit_name}: any cards", suit_name=suit_name)
        )
        return answer | {"legal": True, "reason": reason, "kill": kill}
    if len(followed) < min(len(held), len(lead)):
        need = min(len(held), len(lead))
        return answer | _illegal(
            t(
                "must follow suit: {need} card(s) of {suit_name} are held, only {count} played",
                need=need,
                suit_name=suit_name,
                count=len(followed),
            )
        )
    if len(held) <= len(lead):
        return answer | {"legal": True, "reason": t("all {suit_name} played", suit_name=suit_name)}
    triple_cap, pair_cap = lead_caps(lead, ordering)
    best = shape_of(held, ordering, triple_cap, pair_cap)
    got = shape_of(followed, ordering, triple_cap, pair_cap)
    if got.rank < best.rank:
        return answer | _illegal(
            t(
                "must play {duty} of {suit_name} (the hand holds it), but the play has {duty2}",
                duty=_duty(best),
                suit_name=suit_name,
                duty2=_duty(got) or t("only singles"),
            )
        )
    return answer | {
        "legal": True,
        "reason": t("follows {lead_form}", lead_form=answer["lead_form"]),
    }


def _duty(shape: Shape) -> str:
    return Shape(shape.triples, shape.pairs).describe() if shape.rank != ((), ()) else ""


def _lead_text(lead: list[Card], ordering: Ordering) -> str:
    form = form_of(lead, ordering)
    if form is not None:
        return form.describe()
    return t("a throw of {shape}", shape=shape_of(lead, ordering).describe())


def _illegal(reason: str) -> dict:
    return {"legal": False, "reason": reason}
