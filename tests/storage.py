"""A file storage standing for an object store shared by several hosts (S3 and the like):
files live in its own ``location``, not under the process's MEDIA_ROOT, and it offers no
local path to the application (``path()`` raises outside the storage's own code, as an object
store's does), so code that reads a job's files from the disk instead of through the storage
API fails with it."""

from __future__ import annotations

import sys

from django.core.files.storage import FileSystemStorage


class RemoteStorage(FileSystemStorage):
    def path(self, name):
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if not caller.startswith("django.core.files"):
            raise NotImplementedError("an object store has no local path: use the storage API")
        return super().path(name)
