"""Write an event's archive (JSON) to a file or stdout: manage.py export_archive SLUG [-o FILE]."""

from django.core.management.base import BaseCommand, CommandError

from tournaments.exporters.archive import dumps, export_archive
from tournaments.models import Event


class Command(BaseCommand):
    help = "Export a whole event (teams, rounds, results, audit log…) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the event's short name")
        parser.add_argument("-o", "--output", help="file to write (default: stdout)")

    def handle(self, slug, output=None, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event with the short name {slug!r}")
        text = dumps(export_archive(event))
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
            self.stdout.write(f"wrote {output}")
        else:
            self.stdout.write(text)
