from enum import StrEnum


class CreateResponseRequestModel(StrEnum):
    KIMI_K3 = "kimi-k3"
    KIMI_K3_1_PRO = "kimi-k3.1-pro"
    KIMI_K3_1_PRO_HIGHSPEED = "kimi-k3.1-pro-highspeed"

    def __str__(self) -> str:
        return str(self.value)
