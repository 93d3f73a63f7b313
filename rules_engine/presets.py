"""Scoring presets as data (SPEC 3).

A preset is a frozen :class:`Preset`; an event adjusts a setting with
``preset.with_overrides(fail_a_limit=3)`` (SPEC: "(configurable)" means an event setting).
Game code reads these fields and never branches on a preset's name.

An event's settings are one schema (:func:`event_preset`): the preset's fields and the
penalty ladder's settings (:class:`rules_engine.ladder.LadderSettings`), each checked against
the type its dataclass declares (:mod:`rules_engine.schema`); an unknown key is refused.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from rules_engine import ladder
from rules_engine.cards import RANKS
from rules_engine.errors import RulesError
from rules_engine.format_fields import parse_format
from rules_engine.i18n import gettext_noop, t
from rules_engine.points import answer_number, points_json, to_points
from rules_engine.schema import check_values, describe, fields_of, setting
from rules_engine.seating import other_side

SIDES = ("EW", "NS")
MATCH_FORMAT_GAMES = ("guandan", "tractor")  # games whose matches end by levels (SPEC 2)


def _check_match_format(value: object, where: str) -> dict | None:
    """The event setting ``match_format``: null, or a match format the engine reads
    (:func:`rules_engine.format_fields.parse_format`), stored with its defaults."""
    if value is None:
        return None
    try:
        return parse_format(value)
    except RulesError as err:
        field = err.field.replace("format", where, 1) if err.field else where
        raise RulesError(err.message, field) from None


# The vocabulary of standings metrics, best first within a preset's ``standings_order``.
STANDINGS_METRICS = (
    "points",
    "level_diff",  # total level difference
    "head_to_head",
    "head_to_head_two",  # head-to-head only when exactly two teams are tied
    "net_levels",  # 净积小分
    "accumulated_levels",  # 累积小分: own level - 2, +1 for passing A
    "level_points",  # 级差分: the national preset's second accumulated score
    "deals_won_diff",
    "tricks_diff",
    "latest_round_score",
    "opponents_points",
    "wins",  # matches won (a forfeit win and a bye count)
    "contribution",  # 贡献分 (南山杯 2026 附录一): read as 累积小分, unverified
    "draw_lots",
)

# The kinds of stage an edition may give its own standings order (SPEC 3.1: tie-breaks per
# stage type); a stage of a kind the edition does not name ranks by ``standings_order``.
STAGE_KINDS = ("swiss", "round_robin", "knockout")

# Guandan 20-point scale (SPEC 3): index = level difference, capped at the last row;
# passing A scores the last row too.
SUZHOU_LEVEL_TABLE = tuple((10 + d, 10 - d) for d in range(11))

# Tractor deal table (SPEC 4.3, default 60-point steps): rows of
# (lowest defenders' points, side that goes up, levels). The first row whose lowest
# points are <= the defenders' points, scanning from the bottom, applies.
TRACTOR_DEAL_TABLE = (
    (0, "dealer", 3),
    (5, "dealer", 2),
    (60, "dealer", 1),
    (120, "defenders", 0),
    (180, "defenders", 1),
    (240, "defenders", 2),
    (300, "defenders", 3),
)

# National 26-point 级差分 table (SPEC 3): level difference d -> 13 + d : 13 - d, d capped
# at 13 (passing A counts 13 levels).
NATIONAL_LEVEL_POINTS_TABLE = tuple((13 + d, 13 - d) for d in range(14))

CHENGYU_SUIT_RING = ("D", "C", "H", "S")
# Killing a tractor throw (SPEC 4.3): "strict" (seed 三.4 完全一致, the throw's form as played)
# or "flexible" (trumps that can be laid out as the throw's units).
TRACTOR_KILL_READINGS = {
    "strict": gettext_noop("strict: in exactly the form played"),
    "flexible": gettext_noop("flexible: trumps that can be laid out as the throw's units"),
}
# Guandan tribute (SPEC 4.2): equal double tribute goes "counter_clockwise" (Suzhou: each payer
# to the next seat in the order of play) or "clockwise" (national); the first-out player's
# "before_first" (上家, Suzhou) or "after_first" (下家, national) opponent then leads.
TRIBUTE_DIRECTIONS = {
    "counter_clockwise": gettext_noop("to the next seat in the order of play"),
    "clockwise": gettext_noop("against the order of play"),
}
TRIBUTE_LEADERS = {
    "before_first": gettext_noop("the first-out player's opponent before them"),
    "after_first": gettext_noop("the first-out player's opponent after them"),
}
# In-play penalty ladder (rules_engine.ladder_national): the national text's, the Suzhou
# seed's (十二, 十三 第5条, 十(三), 五(五)), or none.
IN_PLAY_LADDERS = {"national": gettext_noop("national"), "suzhou": gettext_noop("Suzhou")}
NATIONAL_TRIBUTE = {
    "partner_return_limit": "10",
    "equal_tribute_direction": "clockwise",
    "equal_tribute_leader": "after_first",
    "in_play_ladder": "national",
}
TIME_UP_RULES = {
    "finish_deal": gettext_noop("finish the deal in play"),
    "one_more_deal": gettext_noop("play one more deal"),
}
# What the tricks tiebreak sees of an idiom-chain round lost 4:9 by penalty (SPEC 4.4):
# "match" (4:9 in each of the match's three deals, 12:27, whenever it fell) or "played"
# (4:9 in each deal played).
CHENGYU_ROUND_LOST_READINGS = {
    "match": gettext_noop("4:9 in each of the match's three deals (12:27)"),
    "played": gettext_noop("4:9 in each deal played"),
}
# The national text's time and procedure (SPEC 5): 0-20 s a play is normal, 20-30 s a verbal
# warning, then a violation and the loss of a round of play; tribute within 15 s of the deal,
# the return within 30 s.
NATIONAL_TIMES = {
    "play_seconds": 20,
    "play_warning_seconds": 30,
    "tribute_seconds": 15,
    "tribute_return_seconds": 30,
}
# The Suzhou seed's (掼蛋 苏州 十三 第5条): "出牌：0—30秒属正常出牌时间；贡牌后，还牌人必须在
# 40秒内还牌" (no warning band, no limit on the tribute itself).
SUZHOU_TIMES = {"play_seconds": 30, "tribute_return_seconds": 40}

# Round 1 method (SPEC 2): a random draw from the recorded seed ("random", the default), or
# seeded ("seed": teams with seed numbers kept apart, the top half meets the bottom half).
ROUND_ONE_METHODS = {
    "random": gettext_noop("random draw from the recorded seed"),
    "seed": gettext_noop("by seed: seeded teams apart, top half v bottom half"),
}

# The official ranking of an event in stages (SPEC 2): the places the last stage's matches
# cannot separate (the losers of one knockout round) are ranked by the earlier stage's
# ranking ("earlier_stage", the default), or the teams share the place ("shared").
KNOCKOUT_PLACES = {
    "earlier_stage": gettext_noop("ranked by the earlier stage's ranking"),
    "shared": gettext_noop("shared by the teams"),
}


def _check_standings_order(value: object, where: str) -> tuple[str, ...]:
    """The setting ``standings_order``: metrics of :data:`STANDINGS_METRICS`, best first."""
    if not isinstance(value, list | tuple) or not all(isinstance(m, str) for m in value):
        raise RulesError(
            t("{field} must be {kind}", field=where, kind=describe(tuple[str, ...])), where
        )
    for metric in value:
        if metric not in STANDINGS_METRICS:
            raise RulesError(t("unknown standings metric {metric!r}", metric=metric), where)
    return tuple(value)


def _check_stage_orders(value: object, where: str) -> dict[str, tuple[str, ...]] | None:
    """The setting ``stage_standings_orders``: null, or an object from a stage kind
    (:data:`STAGE_KINDS`) to a standings order (:func:`_check_standings_order`)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise RulesError(t("{field} must be {kind}", field=where, kind=describe(Mapping)), where)
    orders = {}
    for kind, order in value.items():
        if kind not in STAGE_KINDS:
            raise RulesError(
                t(
                    "unknown stage kind {kind!r} (known: {known})",
                    kind=kind,
                    known=", ".join(STAGE_KINDS),
                ),
                f"{where}.{kind}",
            )
        orders[kind] = _check_standings_order(order, f"{where}.{kind}")
    return orders


def _check_partner_return_limit(value: object, where: str) -> str:
    """The setting ``partner_return_limit``: "level" (below the level card) or a rank."""
    if value != "level" and (
        not isinstance(value, str) or value.upper().replace("10", "T") not in RANKS
    ):
        raise RulesError(
            t('partner_return_limit must be "level" (below the level card) or a rank 2..A'),
            where,
        )
    return value


@dataclass(frozen=True)
class Preset:
    """A scoring preset. Each field an event may change is declared once, with its bounds,
    choices and words (:func:`rules_engine.schema.setting`)."""

    name: str
    game: str  # "guandan" | "tractor" | "chengyu"
    # no numbers: a name that quotes them builds them (scoring_terms)
    title: str = setting(label=gettext_noop("preset title"))
    # Match points are exact decimals (rules_engine.points): 1 / 0.5 / 0, absent -1 …
    win_points: Decimal = setting(
        scoring=True, min=None, label=gettext_noop("match points for a win")
    )
    draw_points: Decimal = setting(
        scoring=True, min=None, label=gettext_noop("match points for a draw")
    )
    loss_points: Decimal = setting(
        scoring=True, min=None, label=gettext_noop("match points for a loss")
    )
    # (the absent side's opponent, the absent side); a bye scores ``bye_match_points``
    forfeit_points: tuple[Decimal, Decimal] = setting(
        scoring=True, label=gettext_noop("forfeit points [winner, absent side]")
    )
    standings_order: tuple[str, ...] = setting(
        scoring=True,
        items=STANDINGS_METRICS,
        label=gettext_noop("standings order (tiebreaks, best first)"),
        check=_check_standings_order,
    )
    no_show_points: Decimal = setting(
        Decimal(0),
        scoring=True,
        min=None,
        label=gettext_noop("points each when both teams are absent"),
    )
    # A bye apart from a forfeit (SPEC 3.1): its match points (None: the forfeit win) and
    # whether it carries small points (the level difference and 级差分 its points stand for;
    # 2017: a bye carries none).
    bye_match_points: Decimal | None = setting(
        None,
        scoring=True,
        min=None,
        label=gettext_noop("match points for a bye (empty: the forfeit win)"),
    )
    bye_small_points: bool = setting(
        True,
        scoring=True,
        label=gettext_noop("a bye carries small points (the level difference of a forfeit win)"),
    )
    # Standings order per kind of stage (SPEC 3.1: 南山杯 Swiss and groups differ); a kind
    # not named ranks by ``standings_order``.
    stage_standings_orders: Mapping | None = setting(
        None,
        scoring=True,
        keys=STAGE_KINDS,
        items=STANDINGS_METRICS,
        check=_check_stage_orders,
        label=gettext_noop("standings order per kind of stage"),
    )
    decks: int = setting(2, min=1, label=gettext_noop("decks"))
    level_difference_table: tuple[tuple[int, int], ...] | None = setting(
        None, scoring=True, label=gettext_noop("level difference → match points table")
    )
    # None: repeat A until passed or time (never drop back)
    fail_a_limit: int | None = setting(
        None, min=1, label=gettext_noop("attempts at A before dropping back (empty: never)")
    )
    tractor_deal_table: tuple[tuple[int, str, int], ...] | None = setting(
        None, scoring=True, label=gettext_noop("tractor deal table")
    )
    chengyu_suit_ring: tuple[str, ...] | None = setting(
        None,
        label=gettext_noop("idiom-chain suit ring"),
        token_words={"S": "♠", "H": "♥", "C": "♣", "D": "♦"},
    )
    deals_per_match: int | None = setting(
        None, scoring=True, min=1, label=gettext_noop("deals per match")
    )
    # chengyu: what a round lost 4:9 by penalty counts for (rules_engine.chengyu.scoring)
    chengyu_round_lost: str = setting(
        "match",
        scoring=True,
        choices=CHENGYU_ROUND_LOST_READINGS,
        label=gettext_noop("a round lost 4:9 counts in the tricks tiebreak as"),
    )
    # A referee may enter only the final levels instead of every deal (games with levels).
    final_levels_entry: bool = setting(
        False, label=gettext_noop("referees may enter final levels only")
    )
    # Round timing (SPEC 2): referees warn the tables in the last minutes; at time, either the
    # deal in play is finished ("finish_deal") or one more deal is played ("one_more_deal").
    warning_minutes: int = setting(10, label=gettext_noop("warning before time (minutes)"))
    # Pairing (SPEC 2): teams of the same unit are kept apart when possible.
    avoid_same_unit: bool = setting(True, label=gettext_noop("keep teams of one unit apart"))
    time_up: str = setting("finish_deal", choices=TIME_UP_RULES, label=gettext_noop("at time"))
    # 级差分 (national preset): a second accumulated score from the level difference, by
    # this table (index = level difference, capped at the last row), and for a forfeit.
    level_points_table: tuple[tuple[int, int], ...] | None = setting(
        None, scoring=True, label=gettext_noop("level-difference points table")
    )
    forfeit_level_points: tuple[int, int] | None = setting(  # (winner, side that did not play)
        None, scoring=True, label=gettext_noop("forfeit level-difference points [winner, loser]")
    )
    # A knockout match must produce a winner: at equal levels one more deal at a time.
    knockout_extra_deal: bool = setting(
        True, label=gettext_noop("knockout: one more deal at equal levels")
    )
    # The level difference a forfeit or bye counts for in the standings (SPEC 3): None
    # reads it from the table (the row of the forfeit's points: Suzhou 17 = 7 levels);
    # a number sets it (0: a forfeit adds no level difference).
    forfeit_level_difference: int | None = setting(
        None,
        scoring=True,
        label=gettext_noop("level difference of a forfeit (empty: from the table)"),
    )
    tractor_kill_reading: str = setting(
        "strict", choices=TRACTOR_KILL_READINGS, label=gettext_noop("killing a tractor throw")
    )
    # Guandan return to a partner: "level" (below the level card, Suzhou) or the highest rank
    # allowed ("10": 10 or lower, national).
    partner_return_limit: str = setting(
        "level",
        check=_check_partner_return_limit,
        label=gettext_noop("highest return to a partner"),
    )
    equal_tribute_direction: str = setting(
        "counter_clockwise",
        choices=TRIBUTE_DIRECTIONS,
        label=gettext_noop("equal double tribute goes"),
    )
    equal_tribute_leader: str = setting(
        "before_first", choices=TRIBUTE_LEADERS, label=gettext_noop("who leads after tribute")
    )
    in_play_ladder: str | None = setting(
        None, choices=IN_PLAY_LADDERS, label=gettext_noop("in-play penalty ladder")
    )
    # Unit standings (SPEC 2): a unit ranks by the sum of its best N teams.
    unit_best_teams: int = setting(
        2, min=1, label=gettext_noop("unit standings: how many of a unit's best teams count")
    )
    # The event's match format (SPEC 2, rules_engine.match_format): how a match ends (pass A,
    # N deals, time, time or deals) and one game or best of three. None: the game's own end
    # (guandan: passing A, or the deal in play at time). A stage's own format overrides it.
    match_format: Mapping | None = setting(
        None,
        check=_check_match_format,
        label=gettext_noop("match format (how a match ends; one game or best of three)"),
    )
    # Time and procedure of the national text (SPEC 5), in seconds; None: no fixed limit
    # (the chief referee judges). A play up to ``play_seconds`` is normal, up to
    # ``play_warning_seconds`` a verbal warning, beyond a violation and the loss of a round of
    # play; tribute within ``tribute_seconds`` of the deal, the return within
    # ``tribute_return_seconds``.
    play_seconds: int | None = setting(
        None, min=1, label=gettext_noop("seconds a play (normal up to)")
    )
    play_warning_seconds: int | None = setting(
        None, min=1, label=gettext_noop("seconds a play before a violation (warning up to)")
    )
    tribute_seconds: int | None = setting(
        None, min=1, label=gettext_noop("seconds for the tribute after the deal")
    )
    tribute_return_seconds: int | None = setting(
        None, min=1, label=gettext_noop("seconds for the return")
    )
    round_one_method: str = setting(
        "random", scoring=True, choices=ROUND_ONE_METHODS, label=gettext_noop("round 1 method")
    )
    # The round clock a new event of this preset starts with (the event's own round length
    # is the setting): idiom chain 五 "30 分钟内完成比赛".
    default_round_minutes: int = 60
    knockout_places: str = setting(
        "earlier_stage",
        choices=KNOCKOUT_PLACES,
        label=gettext_noop("final ranking: places a knockout round does not separate"),
    )

    def __post_init__(self) -> None:
        """Match points as exact decimals, whatever a preset was written with (3, "0.5")."""
        for name in POINTS_FIELDS:
            value = getattr(self, name)
            if isinstance(value, tuple | list):
                value = tuple(to_points(v) for v in value)
            elif value is not None:
                value = to_points(value)
            object.__setattr__(self, name, value)

    def with_overrides(self, **settings) -> Preset:
        """A copy with event settings applied, every setting checked by the event-settings
        schema (:func:`settable`): preset fields and the penalty ladder's settings alike.
        RulesError names the setting."""
        known = settable()
        for key in settings:
            if key not in known:
                raise RulesError(
                    t(
                        "unknown preset setting {key!r} (known: {known})",
                        key=key,
                        known=", ".join(sorted(known)),
                    ),
                    key,
                )
        changes = check_values(Preset, {k: settings[k] for k in settings if k in PRESET_SETTINGS})
        ladder.ladder_settings(self.game, settings, prefix="")
        preset = dataclasses.replace(self, **changes)
        preset.check_between()  # each field was checked by its declaration above
        return preset

    def validate(self) -> None:
        """Every field by its declaration (rules_engine.schema), then the rules between
        fields (:meth:`check_between`)."""
        check_values(Preset, {name: getattr(self, name) for name in fields_of(Preset)})
        self.check_between()

    def check_between(self) -> None:
        """The rules no single field's declaration can say."""
        if self.match_format is not None and self.game not in MATCH_FORMAT_GAMES:
            raise RulesError(
                t("match formats apply to guandan and tractor, not {game}", game=self.game),
                "match_format",
            )
        if (
            self.play_seconds is not None
            and self.play_warning_seconds is not None
            and self.play_warning_seconds < self.play_seconds
        ):
            raise RulesError(
                t("play_warning_seconds must not be less than play_seconds"),
                "play_warning_seconds",
            )

    def as_dict(self) -> dict:
        """The preset as JSON values (match points ``3`` or ``"0.5"``: points_json)."""
        found = dataclasses.asdict(self)
        for name in POINTS_FIELDS:
            value = found[name]
            if isinstance(value, tuple | list):
                found[name] = [points_json(v) for v in value]
            elif value is not None:
                found[name] = points_json(value)
        return found

    def standings_order_for(self, stage_kind: str | None) -> tuple[str, ...]:
        """The standings order of a stage of kind ``stage_kind`` (its own when the edition
        names one, else ``standings_order``)."""
        orders = self.stage_standings_orders or {}
        return tuple(orders.get(stage_kind) or self.standings_order)


# Fields holding match points (exact decimals, rules_engine.points).
POINTS_FIELDS = (
    "win_points",
    "draw_points",
    "loss_points",
    "forfeit_points",
    "no_show_points",
    "bye_match_points",
)


# Fields of a preset an event may not change: which preset it is and which game it plays;
# and the round length a new event starts with (the event's round length is its own setting).
FIXED_FIELDS = ("name", "game", "default_round_minutes")
PRESET_SETTINGS = tuple(f.name for f in dataclasses.fields(Preset) if f.name not in FIXED_FIELDS)


# Settings that decide match points or the ranking (declared ``scoring=True``): an event may
# not change them once a round is published (results already scored would be read by other
# rules).
SCORING_SETTINGS = tuple(
    name for name, (spec, _hint) in fields_of(Preset).items() if spec.metadata.get("scoring")
)


def settable() -> frozenset[str]:
    """Every key of the event-settings schema: the preset's fields and the ladder's settings."""
    return frozenset(PRESET_SETTINGS) | frozenset(ladder.SETTING_KEYS)


# 南山杯 2026 附录一 一.3 (海选赛, Swiss) and 二.2 / 二.4 (小组赛, groups).
NANSHAN_SWISS_ORDER = ("points", "opponents_points", "wins", "contribution", "draw_lots")
NANSHAN_GROUP_ORDER = (
    "points",
    "head_to_head_two",
    "net_levels",
    "accumulated_levels",
    "draw_lots",
)

WIN_2_DRAW_1 = {"win_points": 2, "draw_points": 1, "loss_points": 0, "forfeit_points": (2, 0)}

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            name="guandan-suzhou-2016",
            game="guandan",
            title="掼蛋 2016 Suzhou elite tournament",
            win_points=20,
            draw_points=10,
            loss_points=0,
            forfeit_points=(17, 0),
            standings_order=("points", "level_diff", "head_to_head", "draw_lots"),
            level_difference_table=SUZHOU_LEVEL_TABLE,
            fail_a_limit=None,
            final_levels_entry=True,
            in_play_ladder="suzhou",
            **SUZHOU_TIMES,
        ),
        Preset(
            name="guandan-national-2017",
            game="guandan",
            title="掼蛋 national 2017",
            win_points=3,
            draw_points=2,
            loss_points=1,
            forfeit_points=(3, 0),
            standings_order=(
                "points",
                "head_to_head_two",
                "net_levels",
                "accumulated_levels",
                "draw_lots",
            ),
            bye_small_points=False,  # SPEC 3.1: "2017: a bye carries no small points"
            fail_a_limit=3,
            final_levels_entry=True,
            **NATIONAL_TRIBUTE,
        ),
        # 南山杯 Aotearoa 掼蛋大赛指南 (2026), 附录一 (an event's own 规程, witnessed by
        # NZSpark/guandan docs/2026.pdf and its commit 8153fce). 一.4 / 二.3: 胜方得 1 分，打平
        # 各得 0.5 分，负方得 0 分；缺席队伍得 -1 分，对手自动获胜（记 1 分）；轮空队伍自动获胜，
        # 记 1 分. 一.3 (海选赛, Swiss): 总积分、对手分、胜场数、贡献分, 一.5 then lots. 二.2 and
        # 二.4 (小组赛, groups): 总积分、相互胜负关系、净积小分、累积小分, with 3 队及以上总积分
        # 相同 skipping 相互胜负; 二.5 then lots. Unverified: 贡献分 is named but not defined by
        # the guide (read as 累积小分, as NZSpark/guandan's README does); both teams absent
        # (-1 each) and whether a bye carries small points are not said (no level table: a
        # bye adds no level difference either way). 附录三 第四条: 总计三次 A 打不过去，退到 2.
        # 附录三 第九条: 还牌必须是 10 以下(含 10); equal double tribute 顺时针方向进贡, returns
        # 逆时针, 头游者的下家 leads (the national text's tribute). The in-play ladder is the
        # national text's (附录三 参照 2017 版); its own offences (迟到, 进贡小牌 …) unverified.
        Preset(
            name="guandan-nanshan-2026",
            game="guandan",
            title="掼蛋 南山杯 Aotearoa 2026 event guide",
            win_points=1,
            draw_points="0.5",
            loss_points=0,
            forfeit_points=(1, -1),
            no_show_points=-1,
            bye_match_points=1,
            bye_small_points=False,
            standings_order=NANSHAN_SWISS_ORDER,
            stage_standings_orders={
                "swiss": NANSHAN_SWISS_ORDER,
                "round_robin": NANSHAN_GROUP_ORDER,
            },
            fail_a_limit=3,
            final_levels_entry=True,
            **NATIONAL_TRIBUTE,
        ),
        Preset(
            name="guandan-national",
            game="guandan",
            title="掼蛋 national rules",
            **WIN_2_DRAW_1,
            standings_order=("points", "level_points", "level_diff", "head_to_head", "draw_lots"),
            level_points_table=NATIONAL_LEVEL_POINTS_TABLE,
            forfeit_level_points=(20, 6),
            fail_a_limit=3,
            final_levels_entry=True,
            **NATIONAL_TRIBUTE,
            **NATIONAL_TIMES,
        ),
        Preset(
            name="tractor",
            game="tractor",
            title="拖拉机 three decks",
            **WIN_2_DRAW_1,
            standings_order=("points", "level_diff", "latest_round_score"),
            decks=3,
            tractor_deal_table=TRACTOR_DEAL_TABLE,
            final_levels_entry=True,
            time_up="one_more_deal",
        ),
        Preset(
            name="chengyu",
            game="chengyu",
            title="成语接龙扑克 idiom-chain poker",
            **WIN_2_DRAW_1,
            standings_order=("points", "deals_won_diff", "tricks_diff"),
            decks=1,
            chengyu_suit_ring=CHENGYU_SUIT_RING,
            deals_per_match=3,
            play_seconds=10,  # 五 "出牌时限，限制 10 秒内，不能有效出牌，判输一墩"
            default_round_minutes=30,  # 五 "30 分钟内完成比赛"
        ),
    )
}

DEFAULT_PRESET = {"guandan": "guandan-suzhou-2016", "tractor": "tractor", "chengyu": "chengyu"}


def get_preset(name: object, field: str = "preset") -> Preset:
    """The preset called ``name``; RulesError naming the known presets otherwise."""
    if isinstance(name, Preset):
        return name
    preset = PRESETS.get(name) if isinstance(name, str) else None
    if preset is None:
        known = ", ".join(PRESETS)
        raise RulesError(
            t("unknown preset {name!r} (known: {known})", name=name, known=known), field
        )
    return preset


def presets_for_game(game: str) -> list[Preset]:
    return [p for p in PRESETS.values() if p.game == game]


def resolve_preset(record: dict, game: str, preset: Preset | str | None = None) -> Preset:
    """The preset for a match record: the argument, else ``record["preset"]``, else the
    game's default; then ``record["settings"]`` (a dict of overrides) applied."""
    chosen = preset if preset is not None else record.get("preset", DEFAULT_PRESET[game])
    return event_preset(game, chosen, record.get("settings"))


def event_preset(game: str, preset: Preset | str, settings: object = None) -> Preset:
    """The one event-settings schema: preset ``preset`` of ``game`` with an event's
    ``settings`` (preset and penalty-ladder settings together, each checked by type and
    range). RulesError names the field: ``preset``, ``settings`` or ``settings.<key>``."""
    chosen = get_preset(preset)
    if chosen.game != game:
        raise RulesError(
            t(
                "preset {name!r} is for {game}, not {game2}",
                name=chosen.name,
                game=chosen.game,
                game2=game,
            ),
            "preset",
        )
    if not settings:
        return chosen
    if not isinstance(settings, Mapping) or not all(isinstance(k, str) for k in settings):
        raise RulesError(t("settings must be an object of preset settings"), "settings")
    try:
        result = chosen.with_overrides(**settings)
    except RulesError as err:
        raise RulesError(
            t("settings: {message}", message=err.message), f"settings.{err.field}"
        ) from None
    if result.decks != chosen.decks:  # the engine deals and checks hands by the game's decks
        raise RulesError(
            t(
                "settings.decks: {game} is played with {decks} (the game's own), not {asked}",
                game=game,
                decks=chosen.decks,
                asked=result.decks,
            ),
            "settings.decks",
        )
    return result


def match_points(
    preset: Preset, winner_side: str | None, level_difference: int = 0, passed_a: bool = False
) -> dict[str, int]:
    """Match points ``{"EW": x, "NS": y}`` for a played match.

    With a ``level_difference_table`` the winner's row is the absolute level difference
    (capped at the last row; passing A takes the last row); a draw takes row 0.
    Otherwise win/draw/loss points apply.
    """
    if winner_side is not None and winner_side not in SIDES:
        raise RulesError(
            t("winner must be EW, NS or null, not {winner_side!r}", winner_side=winner_side),
            "winner",
        )
    table = preset.level_difference_table
    if winner_side is None:
        both = table[0] if table else (preset.draw_points, preset.draw_points)
        return {"EW": answer_number(both[0]), "NS": answer_number(both[1])}
    if table:
        row = len(table) - 1 if passed_a else min(abs(level_difference), len(table) - 1)
        win, loss = table[row]
    else:
        win, loss = preset.win_points, preset.loss_points
    return _by_side(winner_side, win, loss)


def forfeit_match_points(preset: Preset, absent: str) -> dict[str, int | float]:
    """Match points when ``absent`` ("EW", "NS" or "both") did not play."""
    if absent == "both":
        both = answer_number(preset.no_show_points)
        return {"EW": both, "NS": both}
    if absent not in SIDES:
        raise RulesError(
            t("forfeit must be EW, NS, both or null, not {absent!r}", absent=absent), "forfeit"
        )
    win, loss = preset.forfeit_points
    return _by_side(other_side(absent), win, loss)


def bye_points(preset: Preset) -> Decimal:
    """Match points of a team with a bye (exact): ``bye_match_points``, else the forfeit win
    (SPEC 2, 3.1)."""
    if preset.bye_match_points is not None:
        return preset.bye_match_points
    return preset.forfeit_points[0]


def bye_level_difference(preset: Preset) -> int:
    """The level difference a bye counts for: the forfeit win's when the edition's bye
    carries small points, else 0 (SPEC 3.1)."""
    return forfeit_level_difference(preset) if preset.bye_small_points else 0


def bye_level_points(preset: Preset) -> int:
    """The 级差分 of a bye: the forfeit win's when the bye carries small points, else 0."""
    if not preset.bye_small_points:
        return 0
    return (level_points(preset, {"forfeit": "NS"}) or {"EW": 0})["EW"]


def forfeit_record(game: str, absent: object) -> dict:
    """The match record of a forfeit: ``absent`` ("EW", "NS" or "both") did not play."""
    return {"game": game, "deals": [], "forfeit": absent}


def void_record(game: str) -> dict:
    """The match record of a voided match (the chief referee's decision: not played)."""
    return {"game": game, "void": True}


def void_answer() -> dict:
    """The answer for a voided match: no winner and no match points, so it counts as not
    played (:attr:`rules_engine.outcome.Outcome.counts` is False)."""
    return {"void": True, "winner": None, "trace": []}


def forfeit_answer(preset: Preset, forfeit: object, deals: list, **zero_fields) -> dict:
    """The score answer for a match one side (or both) did not play: no levels, no deals.

    ``zero_fields`` are the game's own counters shown as zero (e.g. ``deals_won``, ``tricks``).
    """
    absent = forfeit.strip() if isinstance(forfeit, str) else forfeit
    if absent not in ("EW", "NS", "both"):
        raise RulesError(
            t("forfeit must be EW, NS, both or null, not {forfeit!r}", forfeit=forfeit), "forfeit"
        )
    if deals:
        raise RulesError(t("a forfeited match has no deals: leave deals empty"), "deals")
    return {
        "winner": None if absent == "both" else other_side(absent),
        "levels": None,
        "level_difference": None,
        "passed_a": None,
        **zero_fields,
        "match_points": forfeit_match_points(preset, absent),
        "forfeit": absent,
        "preset": preset.name,
        "trace": [],
    }


def forfeit_level_difference(preset: Preset) -> int:
    """The level difference a forfeit win (or a bye) stands for: +d for the winner, -d for
    the side that did not play (SPEC 3). From the setting, else the row of the preset's
    table whose winner points equal the forfeit's (20-point or 级差分 table), else 0."""
    if preset.forfeit_level_difference is not None:
        return preset.forfeit_level_difference
    win = preset.forfeit_points[0]
    if preset.level_difference_table:
        for row, (points, _) in enumerate(preset.level_difference_table):
            if points == win:
                return row
    if preset.level_points_table and preset.forfeit_level_points:
        for row, (points, _) in enumerate(preset.level_points_table):
            if points == preset.forfeit_level_points[0]:
                return row
    return 0


def level_points(preset: Preset, answer: dict) -> dict[str, int] | None:
    """级差分 ``{"EW": x, "NS": y}`` of a scored match, or None when the preset has none.

    Played: the winner takes row d of the table (d = the level difference, capped at the
    last row), the loser the other column; a draw takes row 0. A forfeit scores
    ``forfeit_level_points``; both sides absent score 0 each.
    """
    table = preset.level_points_table
    if not table:
        return None
    forfeit = answer.get("forfeit")
    if forfeit == "both":
        return {"EW": 0, "NS": 0}
    if forfeit in SIDES:
        win, loss = preset.forfeit_level_points or table[-1]
        return _by_side(other_side(forfeit), win, loss)
    winner = answer.get("winner")
    if winner not in SIDES:
        return {"EW": table[0][0], "NS": table[0][1]}
    difference = answer.get("level_difference") or 0
    favour = max(0, difference if winner == "EW" else -difference)  # best of three: the sum
    win, loss = table[min(favour, len(table) - 1)]
    return _by_side(winner, win, loss)


@dataclass(frozen=True)
class ScoringTerms:
    """The numbers a preset's name quotes, read from its values (an event's overrides
    included), so that no name spells out a number the event may have changed."""

    win: int
    draw: int
    loss: int
    scale: int | None  # a level-difference table's points a match (the 20-point scale)
    level_points: int | None  # the 级差分 table's points a match (26), or None


def scoring_terms(preset: Preset) -> ScoringTerms:
    """``scoring_terms(PRESETS["guandan-national-2017"]) == ScoringTerms(3, 2, 1, None,
    None)``; the Suzhou preset's ``scale`` is 20, the national preset's ``level_points`` 26."""
    table, points_table = preset.level_difference_table, preset.level_points_table
    return ScoringTerms(
        win=preset.win_points,
        draw=preset.draw_points,
        loss=preset.loss_points,
        scale=sum(table[0]) if table else None,
        level_points=sum(points_table[0]) if points_table else None,
    )


def _by_side(winner_side: str, win, loss) -> dict[str, int | float]:
    """Points by side, as the answer's JSON numbers (``3``, ``0.5``: points.answer_number)."""
    win, loss = answer_number(win), answer_number(loss)
    return {"EW": win, "NS": loss} if winner_side == "EW" else {"EW": loss, "NS": win}


def settings_fields(game: str, preset: Preset | str, settings: object = None) -> list[SettingField]:
    """Every field of the event-settings schema (preset, then penalty ladder) with its value for
    ``preset`` of ``game`` with ``settings`` applied, and its default (the preset's own)."""
    base = get_preset(preset)
    chosen = event_preset(game, base, settings)
    own_ladder = ladder.ladder_settings(game, {}, prefix="")
    its_ladder = ladder.ladder_settings(game, settings if isinstance(settings, Mapping) else {})
    found = []
    for group, cls, default_of, value_of in (
        ("preset", Preset, base, chosen),
        ("ladder", ladder.LadderSettings, own_ladder, its_ladder),
    ):
        for name, (spec, hint) in fields_of(cls).items():
            if name in FIXED_FIELDS:
                continue
            found.append(
                SettingField(
                    name,
                    group,
                    hint,
                    dict(spec.metadata),
                    getattr(default_of, name),
                    getattr(value_of, name),
                    name in SCORING_SETTINGS,
                )
            )
    return found


@dataclass(frozen=True)
class SettingField:
    """One setting as a form shows it: its type ``hint`` and metadata (min, max, choices)."""

    name: str
    group: str  # "preset" | "ladder"
    hint: object
    meta: dict
    default: object
    value: object
    scoring: bool  # decides points or ranking: locked once a round is published


def settings_table() -> str:
    """The README's table of event settings (Markdown), made from each setting's one
    declaration: name, words, kind and bounds, default, whether it decides scoring, and the
    presets that set their own value (tests/rules_engine/test_settings_table.py keeps the
    README equal to it)."""
    import json

    rows = [
        "| setting | what it is | value | default | own value in |",
        "|---|---|---|---|---|",
    ]
    for cls, defaults in ((Preset, None), (ladder.LadderSettings, ladder.LadderSettings())):
        for name, (spec, hint) in fields_of(cls).items():
            if cls is Preset and name in FIXED_FIELDS:
                continue
            meta = spec.metadata
            words = meta.get("label", name)
            if meta.get("help"):
                words = f"{words}: {meta['help']}"
            if meta.get("scoring"):
                words += " (scoring: fixed once a round is published)"
            kind = str(describe(hint, meta))
            if meta.get("choice_words"):
                kind = "; ".join(f"`{code}`: {text}" for code, text in meta["choice_words"].items())
                kind += "; or null" if spec.default is None else ""
            if meta.get("items"):
                kind = "a list of " + ", ".join(f"`{item}`" for item in meta["items"])
            if meta.get("keys"):
                kind = (
                    "null, or an object from "
                    + ", ".join(f"`{key}`" for key in meta["keys"])
                    + f" to {kind}"
                )
            if defaults is not None:
                default = getattr(defaults, name)
            elif spec.default is not dataclasses.MISSING:
                default = spec.default
            else:
                default = None
            shown = (
                "each preset's"
                if cls is Preset and spec.default is dataclasses.MISSING
                else f"`{json.dumps(default, ensure_ascii=False, default=points_json)}`"
            )
            own = [
                p.name
                for p in PRESETS.values()
                if cls is Preset
                and spec.default is not dataclasses.MISSING
                and getattr(p, name) != spec.default
            ]
            rows.append(f"| `{name}` | {words} | {kind} | {shown} | {', '.join(own) or '—'} |")
    return "\n".join(rows) + "\n"
