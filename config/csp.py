"""django-csp's middleware, with the policy of a plain response built once.

django-csp builds the Content-Security-Policy header anew for every response (about 4% of a
result submission's CPU, bench/results_load.py BENCH_PYSPY). A response that used no nonce
and changed no directive (every API answer, every cached public page) gets the same header
each time: it is built once per policy setting and reused. Any other response — a page with
a nonce, a view's ``@csp_update`` — goes through django-csp unchanged.
"""

from __future__ import annotations

from csp import middleware
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.utils import build_policy
from django.conf import settings

OVERRIDES = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)


class CSPMiddleware(middleware.CSPMiddleware):
    _built: tuple | None = None  # (the two policy settings, the two headers)

    def process_response(self, request, response):
        plain = getattr(request, "_csp_nonce", None) is None and not any(
            getattr(response, name, None) is not None for name in OVERRIDES
        )
        if not plain or (settings.DEBUG and response.status_code in (404, 500)):
            return super().process_response(request, response)
        for header, value, name, exempt in zip(
            (HEADER, HEADER_REPORT_ONLY),
            self._headers(),
            ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
            ("_csp_exempt", "_csp_exempt_ro"),
            strict=True,
        ):
            prefixes = (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if (
                value
                and header not in response
                and not getattr(response, exempt, False)
                and not request.path_info.startswith(tuple(prefixes))
            ):
                response[header] = value
        if getattr(request, "_csp_nonce", None) is None:
            request.csp_nonce = middleware.CheckableLazyObject(self._csp_nonce_post_response)
        return response

    def _headers(self) -> tuple[str, str]:
        policies = (
            getattr(settings, "CONTENT_SECURITY_POLICY", None),
            getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None),
        )
        built = CSPMiddleware._built
        if built is None or built[0][0] is not policies[0] or built[0][1] is not policies[1]:
            built = policies, (build_policy(), build_policy(report_only=True))
            CSPMiddleware._built = built
        return built[1]
