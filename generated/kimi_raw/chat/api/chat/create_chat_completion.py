from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.chat_completion import ChatCompletion
from ...models.create_chat_completion_request import CreateChatCompletionRequest
from ...models.error_response import ErrorResponse
from ...types import Response


def _get_kwargs(
    *,
    body: CreateChatCompletionRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/chat/completions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ChatCompletion | ErrorResponse | None:
    if response.status_code == 200:
        response_200 = ChatCompletion.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorResponse.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorResponse.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorResponse.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorResponse.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = ErrorResponse.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ErrorResponse.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ChatCompletion | ErrorResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateChatCompletionRequest,
) -> Response[ChatCompletion | ErrorResponse]:
    """Create a chat completion

     Generates the next assistant message for a conversation. Reasoning is always on for
    every Kimi K3.1 Pro model; the reasoning text comes back in `reasoning_content`.

    With `stream: true` the body is a `text/event-stream` instead: each `data:` line holds
    one `ChatCompletionChunk` JSON object and the stream ends with `data: [DONE]`. With
    `stream_options.include_usage: true` a final chunk with an empty `choices` array
    carries `usage` (some gateways put usage in `choices[0].usage` instead). The
    generated call buffers the whole body, so streams are read with the client's own
    SSE reader and parsed chunk by chunk with `ChatCompletionChunk.from_dict`.

    Args:
        body (CreateChatCompletionRequest): Body of a chat completion request. Only `model` and
            `messages` are required; every
            other field is left out of the JSON unless the caller sets it. The five sampling
            fields are fixed by the service and are best omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChatCompletion | ErrorResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CreateChatCompletionRequest,
) -> ChatCompletion | ErrorResponse | None:
    """Create a chat completion

     Generates the next assistant message for a conversation. Reasoning is always on for
    every Kimi K3.1 Pro model; the reasoning text comes back in `reasoning_content`.

    With `stream: true` the body is a `text/event-stream` instead: each `data:` line holds
    one `ChatCompletionChunk` JSON object and the stream ends with `data: [DONE]`. With
    `stream_options.include_usage: true` a final chunk with an empty `choices` array
    carries `usage` (some gateways put usage in `choices[0].usage` instead). The
    generated call buffers the whole body, so streams are read with the client's own
    SSE reader and parsed chunk by chunk with `ChatCompletionChunk.from_dict`.

    Args:
        body (CreateChatCompletionRequest): Body of a chat completion request. Only `model` and
            `messages` are required; every
            other field is left out of the JSON unless the caller sets it. The five sampling
            fields are fixed by the service and are best omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChatCompletion | ErrorResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateChatCompletionRequest,
) -> Response[ChatCompletion | ErrorResponse]:
    """Create a chat completion

     Generates the next assistant message for a conversation. Reasoning is always on for
    every Kimi K3.1 Pro model; the reasoning text comes back in `reasoning_content`.

    With `stream: true` the body is a `text/event-stream` instead: each `data:` line holds
    one `ChatCompletionChunk` JSON object and the stream ends with `data: [DONE]`. With
    `stream_options.include_usage: true` a final chunk with an empty `choices` array
    carries `usage` (some gateways put usage in `choices[0].usage` instead). The
    generated call buffers the whole body, so streams are read with the client's own
    SSE reader and parsed chunk by chunk with `ChatCompletionChunk.from_dict`.

    Args:
        body (CreateChatCompletionRequest): Body of a chat completion request. Only `model` and
            `messages` are required; every
            other field is left out of the JSON unless the caller sets it. The five sampling
            fields are fixed by the service and are best omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChatCompletion | ErrorResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CreateChatCompletionRequest,
) -> ChatCompletion | ErrorResponse | None:
    """Create a chat completion

     Generates the next assistant message for a conversation. Reasoning is always on for
    every Kimi K3.1 Pro model; the reasoning text comes back in `reasoning_content`.

    With `stream: true` the body is a `text/event-stream` instead: each `data:` line holds
    one `ChatCompletionChunk` JSON object and the stream ends with `data: [DONE]`. With
    `stream_options.include_usage: true` a final chunk with an empty `choices` array
    carries `usage` (some gateways put usage in `choices[0].usage` instead). The
    generated call buffers the whole body, so streams are read with the client's own
    SSE reader and parsed chunk by chunk with `ChatCompletionChunk.from_dict`.

    Args:
        body (CreateChatCompletionRequest): Body of a chat completion request. Only `model` and
            `messages` are required; every
            other field is left out of the JSON unless the caller sets it. The five sampling
            fields are fixed by the service and are best omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChatCompletion | ErrorResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
