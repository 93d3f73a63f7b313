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


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR code's modules (quiet zone included), for drawing straight into a PDF. The mask
    is fixed: choosing the best of eight costs most of the time and any mask scans."""
    code = qrcode.QRCode(border=4, mask_pattern=0)
    code.add_data(url)
    code.make(fit=True)
    return code.get_matrix()
