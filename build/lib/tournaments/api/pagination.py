from rest_framework.pagination import LimitOffsetPagination


class Pagination(LimitOffsetPagination):
    """Limit/offset paging with a ceiling, so ?limit=<huge> cannot reach the database."""

    default_limit = 200
    max_limit = 1000
