"""Exports: one exporter class per format, each with ``render()`` (see base.py)."""

from __future__ import annotations


def exporters() -> dict[str, type]:
    """Every exporter by identifier (imported lazily: PDF rendering loads WeasyPrint)."""
    from .archive import ArchiveJson
    from .brackets import BracketPdf
    from .event_file import EventFileJson
    from .pairings import PairingsPdf, PairingsXlsx
    from .printables import TableCardsPdf, TableLinksPdf, TeamBadgesPdf
    from .prizes import CertificatesPdf, PrizeListPdf
    from .scoresheets import ScoresheetsPdf
    from .standings_pdf import StandingsPdf
    from .standings_xlsx import StandingsXlsx
    from .units import UnitStandingsPdf, UnitStandingsXlsx

    return {
        cls.identifier: cls
        for cls in (
            StandingsXlsx,
            StandingsPdf,
            PairingsPdf,
            PairingsXlsx,
            ScoresheetsPdf,
            ArchiveJson,
            EventFileJson,
            PrizeListPdf,
            CertificatesPdf,
            UnitStandingsXlsx,
            UnitStandingsPdf,
            TableCardsPdf,
            TeamBadgesPdf,
            TableLinksPdf,
            BracketPdf,
        )
    }
