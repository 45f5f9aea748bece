"""Responses request bodies as the service takes them (the reference documents' requests
and the project's own): the raw Responses tests send them, and the spec suite validates
them (Responses keeps no request fixture files)."""

from __future__ import annotations

from typing import Any

WEATHER_PARAMETERS = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name"},
        "unit": {"type": "string", "enum": ["c", "f"]},
    },
    "required": ["city"],
}

APPLY_PATCH_GRAMMAR = (
    'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF\n'
    'end_patch: "*** End Patch" LF?\n'
)

PATCH_TEXT = (
    "*** Begin Patch\n*** Update File: app/payments.py\n@@ def charge(request):\n"
    "-    return gateway.charge(request.amount)\n"
    '+    key = request.headers["Idempotency-Key"]\n'
    "+    return gateway.charge(request.amount, idempotency_key=key)\n*** End Patch\n"
)

# Representative request bodies: one per request feature. Each is built with
# CreateResponseRequest.from_dict, sent, and must appear on the wire unchanged.
REQUEST_BODIES: dict[str, dict[str, Any]] = {
    "minimal": {"model": "kimi-k3.1-pro", "input": "Reply with OK."},
    "highspeed_messages": {
        "model": "kimi-k3.1-pro-highspeed",
        "instructions": "Answer in one short sentence.",
        "input": [
            {"role": "system", "content": "You are a payments engineer."},
            {"role": "developer", "content": "Prefer concrete examples."},
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "What does this diagram show?"},
                    {
                        "type": "input_image",
                        "image_url": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
                        "detail": "high",
                    },
                ],
            },
        ],
        "max_output_tokens": 2048,
        "reasoning": {"effort": "low"},
    },
    "kimi_k3": {
        "model": "kimi-k3",
        "input": "Summarise RFC 9110 section 9.2.2 in two sentences.",
        "reasoning": {"effort": "max"},
        "max_output_tokens": 1048576,
    },
    "stream": {
        "model": "kimi-k3.1-pro",
        "input": "Reply with OK.",
        "stream": True,
        "max_output_tokens": 1,
        "reasoning": {"effort": "high", "summary": "auto"},
    },
    "function_tool": {
        "model": "kimi-k3.1-pro",
        "input": "What is the weather in Beijing right now?",
        "tools": [
            {
                "type": "function",
                "name": "get_weather",
                "description": "Current weather for a city.",
                "parameters": WEATHER_PARAMETERS,
                "strict": True,
            }
        ],
        "tool_choice": "auto",
    },
    "namespace_tool": {
        "model": "kimi-k3.1-pro",
        "input": "Find the customer ada@example.com.",
        "tools": [
            {
                "type": "namespace",
                "name": "crm",
                "description": "Customer records.",
                "tools": [
                    {
                        "type": "function",
                        "name": "lookup_customer",
                        "description": "Find a customer by e-mail.",
                        "parameters": {
                            "type": "object",
                            "properties": {"email": {"type": "string"}},
                            "required": ["email"],
                        },
                        "strict": False,
                    },
                    {"type": "function", "name": "list_orders"},
                ],
            }
        ],
        "tool_choice": {"type": "auto"},
    },
    "apply_patch_tool": {
        "model": "kimi-k3.1-pro",
        "input": "Pass the Idempotency-Key header through to gateway.charge in app/payments.py.",
        "tools": [
            {
                "type": "custom",
                "name": "apply_patch",
                "description": "Edit files with a patch envelope.",
                "format": {"type": "grammar", "syntax": "lark", "definition": APPLY_PATCH_GRAMMAR},
            },
            {"type": "custom", "name": "apply_patch", "format": {"type": "text"}},
        ],
        "tool_choice": {"type": "custom", "name": "apply_patch"},
    },
    "web_search_tool": {
        "model": "kimi-k3.1-pro",
        "input": "Use web search to find the official Kimi homepage URL.",
        "tools": [{"type": "web_search"}],
        "include": ["web_search_call.results", "web_search_call.action.sources"],
        "tool_choice": {"type": "web_search"},
    },
    "structured_output": {
        "model": "kimi-k3.1-pro",
        "input": "Return a JSON object with result equal to OK.",
        "text": {
            "format": {
                "type": "json_schema",
                "name": "result",
                "schema": {
                    "type": "object",
                    "properties": {"result": {"type": "string"}},
                    "required": ["result"],
                    "additionalProperties": False,
                },
                "strict": True,
            }
        },
    },
    "structured_output_unnamed": {
        "model": "kimi-k3.1-pro",
        "input": "Return the three largest planets as JSON.",
        "text": {
            "format": {
                "type": "json_schema",
                "schema": {
                    "type": "object",
                    "properties": {"planets": {"type": "array", "items": {"type": "string"}}},
                    "required": ["planets"],
                },
            }
        },
    },
    "text_format_text": {
        "model": "kimi-k3.1-pro",
        "input": "Reply with OK.",
        "text": {"format": {"type": "text"}},
    },
    "caching": {
        "model": "kimi-k3.1-pro",
        "instructions": "You review pull requests for a payments service.",
        "input": "Review the attached diff.",
        "prompt_cache_key": "repo:payments:reviewer:v3",
        "prompt_cache_options": {"mode": "implicit", "ttl": "1h"},
        "safety_identifier": "user_5f0c3b1e9a",
    },
    "caching_default_ttl": {
        "model": "kimi-k3.1-pro-highspeed",
        "input": "Continue.",
        "prompt_cache_options": {"mode": "implicit", "ttl": "5m"},
    },
    "stateless_replay": {
        "model": "kimi-k3.1-pro",
        "input": [
            {"role": "user", "content": "What's the weather and the time in Beijing?"},
            {
                "type": "reasoning",
                "id": "rs_1b2c3d4e5f60718293a4b5c7",
                "summary": [],
                "content": [
                    {
                        "type": "reasoning_text",
                        "text": "Call get_weather and get_time in parallel.",
                    }
                ],
                "encrypted_content": None,
            },
            {
                "type": "function_call",
                "id": "fc_1b2c3d4e5f60718293a4b5c8",
                "call_id": "functions.get_weather:0",
                "name": "get_weather",
                "arguments": '{"city": "Beijing", "unit": "c"}',
                "status": "completed",
            },
            {
                "type": "function_call",
                "id": "fc_1b2c3d4e5f60718293a4b5c9",
                "call_id": "functions.get_time:1",
                "name": "get_time",
                "arguments": '{"tz": "Asia/Shanghai"}',
                "status": "completed",
            },
            {
                "type": "function_call_output",
                "call_id": "functions.get_weather:0",
                "output": '{"temp_c": 21, "sky": "clear"}',
            },
            {
                "type": "function_call_output",
                "call_id": "functions.get_time:1",
                "output": [{"type": "input_text", "text": "14:05 CST"}],
            },
            {
                "type": "reasoning",
                "id": "rs_2a",
                "summary": [],
                "content": [{"type": "reasoning_text", "text": ""}],
                "encrypted_content": None,
            },
            {
                "type": "message",
                "id": "msg_2b",
                "role": "assistant",
                "status": "completed",
                "content": [
                    {
                        "type": "output_text",
                        "text": "It is 21 °C and clear in Beijing; local time is 14:05.",
                        "annotations": [],
                    }
                ],
            },
            {"role": "user", "content": "Now pass the idempotency key through in payments.py."},
            {
                "type": "reasoning",
                "id": "rs_3d4e5f60718293a4b5c6d7e9",
                "summary": [{"type": "summary_text", "text": "Patch charge()."}],
                "content": [{"type": "reasoning_text", "text": "Forward the header value."}],
                "encrypted_content": None,
            },
            {
                "type": "custom_tool_call",
                "id": "ctc_3d4e5f60718293a4b5c6d7ea",
                "call_id": "apply_patch:0",
                "name": "apply_patch",
                "input": PATCH_TEXT,
                "status": "completed",
            },
            {
                "type": "custom_tool_call_output",
                "call_id": "apply_patch:0",
                "output": "Done. Updated app/payments.py (1 hunk).",
            },
        ],
        "tools": [
            {"type": "function", "name": "get_weather", "parameters": WEATHER_PARAMETERS},
            {"type": "custom", "name": "apply_patch"},
        ],
        "tool_choice": "auto",
        "reasoning": {"effort": "high"},
        "max_output_tokens": 8192,
    },
}
