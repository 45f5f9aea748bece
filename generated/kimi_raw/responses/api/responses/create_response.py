from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_response_request import CreateResponseRequest
from ...models.error_response import ErrorResponse
from ...models.response_object import ResponseObject
from ...types import Response


def _get_kwargs(
    *,
    body: CreateResponseRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/responses",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | ResponseObject | None:
    if response.status_code == 200:
        response_200 = ResponseObject.from_dict(response.json())

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
) -> Response[ErrorResponse | ResponseObject]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateResponseRequest,
) -> Response[ErrorResponse | ResponseObject]:
    """Create a response

     Generates one model response for the given input. With `stream: true` the body is a server-sent
    event stream instead of JSON: each SSE `event:` name equals the `type` of its JSON `data:` payload
    (see the `ResponseStreamEvent` union and the `Response*Event` schemas). A stream is finished only
    when a terminal event (`response.completed`, `response.incomplete` or `response.failed`) arrived; a
    closed connection alone proves nothing.

    Args:
        body (CreateResponseRequest): Body of POST /v1/responses. Only `model` and `input` are
            required; leave every other field out unless you mean to set it. There is no
            `previous_response_id`: replay the full history in `input`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | ResponseObject]
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
    body: CreateResponseRequest,
) -> ErrorResponse | ResponseObject | None:
    """Create a response

     Generates one model response for the given input. With `stream: true` the body is a server-sent
    event stream instead of JSON: each SSE `event:` name equals the `type` of its JSON `data:` payload
    (see the `ResponseStreamEvent` union and the `Response*Event` schemas). A stream is finished only
    when a terminal event (`response.completed`, `response.incomplete` or `response.failed`) arrived; a
    closed connection alone proves nothing.

    Args:
        body (CreateResponseRequest): Body of POST /v1/responses. Only `model` and `input` are
            required; leave every other field out unless you mean to set it. There is no
            `previous_response_id`: replay the full history in `input`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | ResponseObject
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateResponseRequest,
) -> Response[ErrorResponse | ResponseObject]:
    """Create a response

     Generates one model response for the given input. With `stream: true` the body is a server-sent
    event stream instead of JSON: each SSE `event:` name equals the `type` of its JSON `data:` payload
    (see the `ResponseStreamEvent` union and the `Response*Event` schemas). A stream is finished only
    when a terminal event (`response.completed`, `response.incomplete` or `response.failed`) arrived; a
    closed connection alone proves nothing.

    Args:
        body (CreateResponseRequest): Body of POST /v1/responses. Only `model` and `input` are
            required; leave every other field out unless you mean to set it. There is no
            `previous_response_id`: replay the full history in `input`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | ResponseObject]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CreateResponseRequest,
) -> ErrorResponse | ResponseObject | None:
    """Create a response

     Generates one model response for the given input. With `stream: true` the body is a server-sent
    event stream instead of JSON: each SSE `event:` name equals the `type` of its JSON `data:` payload
    (see the `ResponseStreamEvent` union and the `Response*Event` schemas). A stream is finished only
    when a terminal event (`response.completed`, `response.incomplete` or `response.failed`) arrived; a
    closed connection alone proves nothing.

    Args:
        body (CreateResponseRequest): Body of POST /v1/responses. Only `model` and `input` are
            required; leave every other field out unless you mean to set it. There is no
            `previous_response_id`: replay the full history in `input`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | ResponseObject
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
