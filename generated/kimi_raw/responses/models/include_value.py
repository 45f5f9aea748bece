from enum import StrEnum


class IncludeValue(StrEnum):
    WEB_SEARCH_CALL_ACTION_SOURCES = "web_search_call.action.sources"
    WEB_SEARCH_CALL_RESULTS = "web_search_call.results"

    def __str__(self) -> str:
        return str(self.value)
