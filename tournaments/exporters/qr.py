"""QR codes as inline SVG (no image files, no external service: venues are offline)."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from django.conf import settings


def qr_svg(url: str, box_size: int = 8) -> str:
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=box_size)
    buffer = io.BytesIO()
    image.save(buffer)
    svg = buffer.getvalue().decode()
    return svg[svg.index("<svg") :]


def public_url(path: str) -> str:
    """The absolute address of ``path`` as printed on paper (settings.PAISAI_PUBLIC_URL)."""
    return settings.PAISAI_PUBLIC_URL + path
