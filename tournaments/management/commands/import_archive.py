"""Load an event archive written by export_archive: manage.py import_archive FILE."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from tournaments.errors import ExportError
from tournaments.services.archive import import_archive


class Command(BaseCommand):
    help = "Import an event archive (JSON) into a database that does not hold the event."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive (JSON); - reads stdin")

    def handle(self, file, **options):
        try:
            if file == "-":
                data = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as handle:
                    data = json.load(handle)
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from None
        except json.JSONDecodeError as error:
            raise CommandError(f"{file} is not JSON: {error}") from None
        try:
            event = import_archive(data)
        except ExportError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"imported {event.slug} ({event.name})")
