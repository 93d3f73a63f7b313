"""``makemessages`` as this project runs it (``make messages`` and the catalogue's check,
tests/test_translations.py): the same sources and the same file layout every time.

- Only the product's sources: the tests, benchmarks, scripts, the npm packages and the
  run-time files are not read (a word used only by a test is no message of the product).
- References name the file, not the line (``#: tournaments/forms.py``): editing a module
  does not move every entry after it, so a refresh changes only what changed.
- English is the language of the source; the one catalogue is Chinese (``-l zh_Hans``).
"""

from __future__ import annotations

from django.core.management.commands import makemessages

IGNORED = ["bench", "tests", "scripts", "node_modules", "var", "build", "staticfiles", "media"]


class Command(makemessages.Command):
    def handle(self, *args, **options):
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        if not options.get("add_location") and not options.get("no_location"):
            options["add_location"] = "file"
        return super().handle(*args, **options)
