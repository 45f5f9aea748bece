from enum import StrEnum


class ReasoningConfigSummary(StrEnum):
    AUTO = "auto"
    CONCISE = "concise"
    DETAILED = "detailed"

    def __str__(self) -> str:
        return str(self.value)
