from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_message_request import CreateMessageRequest
from ...models.error_response import ErrorResponse
from ...models.message_response import MessageResponse
from ...types import Response, Unset


def _get_kwargs(
    *,
    body: CreateMessageRequest,
    anthropic_version: str | Unset = "2023-06-01",
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(anthropic_version, Unset):
        headers["anthropic-version"] = anthropic_version

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/messages",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | MessageResponse | None:
    if response.status_code == 200:
        response_200 = MessageResponse.from_dict(response.json())

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
) -> Response[ErrorResponse | MessageResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateMessageRequest,
    anthropic_version: str | Unset = "2023-06-01",
) -> Response[ErrorResponse | MessageResponse]:
    """Create a message

     Generates the next assistant turn for a conversation. With `stream: true` the 200 body is a server-
    sent event stream (`text/event-stream`) whose `data:` payloads are the `MessageStreamEvent` schemas
    (message_start, content_block_start, content_block_delta, content_block_stop, message_delta,
    message_stop, ping and error); the generated call buffers the body, so streams are read with the
    request this module builds and parsed event by event.

    Args:
        anthropic_version (str | Unset):  Default: '2023-06-01'. Example: 2023-06-01.
        body (CreateMessageRequest): Body of `POST /v1/messages`. `model`, `max_tokens` and
            `messages` are required; every other field is left out of the JSON unless the caller sets
            it. The two sampling fields are fixed by the service and are best omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | MessageResponse]
    """

    kwargs = _get_kwargs(
        body=body,
        anthropic_version=anthropic_version,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CreateMessageRequest,
    anthropic_version: str | Unset = "2023-06-01",
) -> ErrorResponse | MessageResponse | None:
    """Create a message

     Generates the next assistant turn for a conversation. With `stream: true` the 200 body is a server-
    sent event stream (`text/event-stream`) whose `data:` payloads are the `MessageStreamEvent` schemas
    (message_start, content_block_start, content_block_delta, content_block_stop, message_delta,
    message_stop, ping and error); the generated call buffers the body, so streams are read with the
    request this module builds and parsed event by event.

    Args:
        anthropic_version (str | Unset):  Default: '2023-06-01'. Example: 2023-06-01.
        body (CreateMessageRequest): Body of `POST /v1/messages`. `model`, `max_tokens` and
            `messages` are required; every other field is left out of the JSON unless the caller sets
            it. The two sampling fields are fixed by the service and are best omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | MessageResponse
    """

    return sync_detailed(
        client=client,
        body=body,
        anthropic_version=anthropic_version,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateMessageRequest,
    anthropic_version: str | Unset = "2023-06-01",
) -> Response[ErrorResponse | MessageResponse]:
    """Create a message

     Generates the next assistant turn for a conversation. With `stream: true` the 200 body is a server-
    sent event stream (`text/event-stream`) whose `data:` payloads are the `MessageStreamEvent` schemas
    (message_start, content_block_start, content_block_delta, content_block_stop, message_delta,
    message_stop, ping and error); the generated call buffers the body, so streams are read with the
    request this module builds and parsed event by event.

    Args:
        anthropic_version (str | Unset):  Default: '2023-06-01'. Example: 2023-06-01.
        body (CreateMessageRequest): Body of `POST /v1/messages`. `model`, `max_tokens` and
            `messages` are required; every other field is left out of the JSON unless the caller sets
            it. The two sampling fields are fixed by the service and are best omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | MessageResponse]
    """

    kwargs = _get_kwargs(
        body=body,
        anthropic_version=anthropic_version,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CreateMessageRequest,
    anthropic_version: str | Unset = "2023-06-01",
) -> ErrorResponse | MessageResponse | None:
    """Create a message

     Generates the next assistant turn for a conversation. With `stream: true` the 200 body is a server-
    sent event stream (`text/event-stream`) whose `data:` payloads are the `MessageStreamEvent` schemas
    (message_start, content_block_start, content_block_delta, content_block_stop, message_delta,
    message_stop, ping and error); the generated call buffers the body, so streams are read with the
    request this module builds and parsed event by event.

    Args:
        anthropic_version (str | Unset):  Default: '2023-06-01'. Example: 2023-06-01.
        body (CreateMessageRequest): Body of `POST /v1/messages`. `model`, `max_tokens` and
            `messages` are required; every other field is left out of the JSON unless the caller sets
            it. The two sampling fields are fixed by the service and are best omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | MessageResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            anthropic_version=anthropic_version,
        )
    ).parsed
