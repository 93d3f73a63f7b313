"""PDF plumbing shared by the PDF exporters: WeasyPrint with a reused stylesheet and font
configuration, and stamping a page that is the same on every sheet under each page of a
document.

WeasyPrint spends most of its time per text item and per box, so the exporters keep the
HTML small: big tables are split into page-sized blocks, and what every scoresheet shares
is rendered once and drawn under each sheet as a PDF form XObject.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string

PDF_TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "pdf"
STAMP_NAME = "/PaisaiSheet"


def font_family() -> str:
    return settings.PAISAI_SCORESHEET_FONT


def mono_font_family() -> str:
    return settings.PAISAI_PDF_MONO_FONT


def css_text(name: str) -> str:
    """The print stylesheet templates/pdf/<name> with the configured CJK fonts."""
    text = (PDF_TEMPLATES / name).read_text(encoding="utf-8")
    text = text.replace("MONO_FAMILY", f'"{mono_font_family()}"')
    return text.replace("FONT_FAMILY", f'"{font_family()}"')


@cache
def _font_config():
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


@cache
def _stylesheet(text: str):
    """A compiled stylesheet, once per process and text."""
    from weasyprint import CSS

    return CSS(string=text, font_config=_font_config())


def render_pdf(job: tuple[str, str]) -> bytes:
    """(html, css text) to PDF bytes. Needs no Django settings: runs in worker processes."""
    from weasyprint import HTML

    html, css = job
    return HTML(string=html, base_url=str(PDF_TEMPLATES)).write_pdf(
        stylesheets=[_stylesheet(css)], font_config=_font_config()
    )


def html_to_pdf(html: str, css_name: str) -> bytes:
    return render_pdf((html, css_text(css_name)))


def template_to_pdf(template: str, context: dict, css_name: str) -> bytes:
    return html_to_pdf(render_to_string(template, context), css_name)


def stamp_under(documents: list[bytes], background: bytes) -> bytes:
    """The pages of ``documents`` in order, with the first page of ``background`` drawn
    under every one of them.

    The background becomes one form XObject shared by all pages, so the file holds the
    shared drawing (and its fonts) once, whatever the number of pages.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        FloatObject,
        NameObject,
    )

    writer = PdfWriter()
    for data in documents:
        writer.append(io.BytesIO(data))
    source = PdfReader(io.BytesIO(background)).pages[0]
    form = DecodedStreamObject()
    form.set_data(source.get_contents().get_data())
    form[NameObject("/Type")] = NameObject("/XObject")
    form[NameObject("/Subtype")] = NameObject("/Form")
    form[NameObject("/BBox")] = ArrayObject([FloatObject(v) for v in source.mediabox])
    form[NameObject("/Resources")] = source["/Resources"].get_object().clone(writer)
    form_ref = writer._add_object(form)
    prefix = DecodedStreamObject()
    prefix.set_data(f"q {STAMP_NAME} Do Q\n".encode())
    prefix_ref = writer._add_object(prefix)
    for page in writer.pages:
        resources = page[NameObject("/Resources")].get_object()
        if "/XObject" not in resources:
            resources[NameObject("/XObject")] = DictionaryObject()
        resources["/XObject"].get_object()[NameObject(STAMP_NAME)] = form_ref
        contents = ArrayObject([prefix_ref])
        current = page["/Contents"]
        if isinstance(current.get_object(), ArrayObject):
            contents.extend(current.get_object())
        else:
            contents.append(current)
        page[NameObject("/Contents")] = contents
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def concatenate(documents: list[bytes]) -> bytes:
    """The pages of ``documents`` in order, as one PDF."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    for data in documents:
        writer.append(io.BytesIO(data))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
