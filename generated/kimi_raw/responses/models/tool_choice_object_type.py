from enum import StrEnum


class ToolChoiceObjectType(StrEnum):
    AUTO = "auto"
    CUSTOM = "custom"
    FUNCTION = "function"
    NONE = "none"
    REQUIRED = "required"
    WEB_SEARCH = "web_search"

    def __str__(self) -> str:
        return str(self.value)
