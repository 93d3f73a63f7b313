"""An event's halls with their ranges of tables (issue 14): "A厅 1-60" is parsed in one place
(tournaments.halls) and refused there when a range runs backwards, has a table 0 or shares
tables with another hall's."""

from __future__ import annotations

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from tournaments import halls
from tournaments.errors import ServiceError
from tournaments.halls import Hall
from tournaments.models import Event


@pytest.mark.parametrize(
    ("line", "hall"),
    [
        ("A厅 1-60", Hall("A厅", 1, 60)),
        ("Hall B 61–120", Hall("Hall B", 61, 120)),
        ("C厅 121—180", Hall("C厅", 121, 180)),
        ("D厅 181~240", Hall("D厅", 181, 240)),
        ("E厅 241至300", Hall("E厅", 241, 300)),
        ("F厅241 - 300", Hall("F厅", 241, 300)),  # spaces optional around the numbers
        ("Hall 2 1-60", Hall("Hall 2", 1, 60)),  # a number in the name stays in the name
        ("  Room 101-120  ", Hall("Room", 101, 120)),
        ("主厅", Hall("主厅")),  # no range: a plain hall name
        ("Hall A 1-", Hall("Hall A 1-")),
        ("1-60", Hall("1-60", 1, 60)),  # no name: the hall is named by its range
    ],
)
def test_a_hall_line_is_its_name_and_the_range_of_its_tables(line, hall):
    assert halls.parse(line) == [hall]


def test_parse_keeps_the_order_and_skips_blank_lines_and_the_event_reads_its_halls():
    text = "A厅 1-60\n\n  \r\n休息区\nB厅 61-120\n"
    assert halls.parse(text) == [Hall("A厅", 1, 60), Hall("休息区"), Hall("B厅", 61, 120)]
    assert halls.parse("") == [] and halls.parse(None) == []
    assert Event(halls=text).hall_list() == halls.parse(text)


def test_a_table_is_in_a_hall_within_its_range_and_a_bye_in_none():
    hall = Hall("A厅", 1, 60)
    assert 1 in hall and 60 in hall and 61 not in hall and 0 not in hall
    assert None not in hall and 5 not in Hall("主厅")
    assert hall.has_range and not Hall("主厅").has_range
    assert hall.usable and not Hall("主厅").usable  # a screen or a zone is shown for it
    assert not any(Hall("A厅", *ends).usable for ends in [(60, 1), (0, 5), (1, 20000)])


def test_refused_a_range_backwards_a_table_0_and_two_halls_sharing_tables():
    with translation.override("en"):
        assert halls.refusals(halls.parse("A厅 60-1")) == [
            "A厅: table 60 is above table 1; write the hall's first table first."
        ]
        assert halls.refusals(halls.parse("A厅 0-10")) == [
            "A厅: there is no table 0; tables are numbered from 1."
        ]
        assert halls.refusals(halls.parse("A厅 1-60\nB厅 50-120")) == [
            "A厅 and B厅 both hold tables 50–60."
        ]
        assert halls.refusals(halls.parse("A厅 1-60\nB厅 60-120")) == [
            "A厅 and B厅 both hold table 60."
        ]
        assert halls.refusals(halls.parse("A厅 1-20000")) == ["A厅: table numbers go up to 10000."]
        assert halls.refusals(halls.parse("A厅 1-60\n休息区\nB厅 61-120")) == []
    with translation.override("zh-hans"):
        assert halls.refusals(halls.parse("A厅 1-60\nB厅 50-120")) == [
            "A厅 与 B厅 都包含第 50–60 桌。"
        ]


def test_check_refuses_with_a_service_error_naming_the_halls_field():
    with pytest.raises(ServiceError) as refused:
        halls.check("A厅 1-60\nB厅 40-80")
    assert refused.value.field == "halls" and refused.value.status == 400
    with translation.override("en"):
        assert refused.value.message == "A厅 and B厅 both hold tables 40–60."
    assert halls.check("A厅 1-60") == [Hall("A厅", 1, 60)]


ranges = st.lists(
    st.tuples(st.integers(0, 80), st.integers(0, 80), st.sampled_from(["-", "–", "—", "~", "至"])),
    max_size=6,
)


@given(ranges)
def test_every_table_of_halls_that_pass_is_in_at_most_one_hall(drawn):
    text = "\n".join(f"厅{i} {first} {dash} {last}" for i, (first, last, dash) in enumerate(drawn))
    parsed = halls.parse(text)
    assert [(h.first, h.last) for h in parsed] == [(first, last) for first, last, _ in drawn]
    holders = {table: [h for h in parsed if table in h] for table in range(0, 82)}
    if not halls.faults(parsed):
        assert all(len(found) <= 1 for found in holders.values())
    if any(len(found) > 1 for found in holders.values()):  # and shared tables are refused
        assert halls.overlaps(parsed)
