from rest_framework.pagination import LimitOffsetPagination

from .query import QueryInt

LIMIT = QueryInt(
    "limit", minimum=1, cap=1000, description="Rows to give (at most 1,000; 200 when not given)."
)
OFFSET = QueryInt("offset", minimum=0, description="Rows to skip.")


class Pagination(LimitOffsetPagination):
    """Limit/offset paging with a ceiling, so ?limit=<huge> cannot reach the database; a
    limit or offset that is no whole number is refused (400 naming it), not ignored."""

    default_limit = 200
    max_limit = 1000

    def get_limit(self, request):
        return LIMIT.read(request.query_params, self.default_limit)

    def get_offset(self, request):
        return OFFSET.read(request.query_params, 0)

    def get_schema_operation_parameters(self, view):
        return [LIMIT.parameter_dict(), OFFSET.parameter_dict()]
