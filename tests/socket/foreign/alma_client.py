"""A foreign (non-JavaScript) Alma client: python-socketio as Debian ships it (5.7, /usr/bin/python3).

Registers through REST, connects with the handshake auth of SPEC.md P-1, sends one message and
records every server event until the whole reply has arrived (typing -> deltas -> reply). Prints one
JSON document: the ack and each event with its payload and how many arguments socket.io passed.
tests/socket/foreign-client.test.ts runs it and validates every payload against the protocol.

Usage: alma_client.py BASE_URL PROTOCOL_VERSION EMAIL
"""

import base64
import json
import sys
import threading
import urllib.request
import uuid

import socketio


def register(base_url, email):
    body = json.dumps(
        {"name": "Pyra", "email": email, "password": "Password123!", "confirmPassword": "Password123!", "terms": True}
    ).encode()
    request = urllib.request.Request(
        base_url + "/auth/register",
        data=body,
        headers={"content-type": "application/json", "accept-language": "en"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["token"]


def jsonable(value):
    """Binary fields (speech:chunk audio) travel as base64 so Node can rebuild the bytes."""
    if isinstance(value, (bytes, bytearray)):
        return {"$bytes": base64.b64encode(value).decode()}
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    return value


def main():
    base_url, protocol_version, email = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    token = register(base_url, email)
    sio = socketio.Client(reconnection=False)
    events = []
    done = threading.Event()

    def written_to_the_protocol(data):
        """A handler as the protocol reads: one payload object per event (STYLE.md)."""

    # SPEC.md F-1: with connection-state recovery, socket.io appends an offset argument to room
    # events; a handler must accept it (*offset), or it raises TypeError on every such event.
    @sio.on("*")
    def on_any(event, *args):
        record = {"event": event, "args": len(args), "payload": jsonable(args[0]) if args else None}
        try:
            written_to_the_protocol(*args)
        except TypeError as error:
            record["strictHandlerError"] = str(error)
        events.append(record)
        if event in ("chat:reply", "chat:error"):
            done.set()

    sio.connect(
        base_url,
        auth={"token": token, "protocolVersion": protocol_version},
        transports=["websocket"],
        wait_timeout=30,
    )
    ack = sio.call(
        "chat:send",
        {"clientMessageId": str(uuid.uuid4()), "message": "Hello! My name is Pyra and I love the sea."},
        timeout=30,
    )
    finished = done.wait(timeout=90)
    sio.disconnect()
    print(json.dumps({"ack": jsonable(ack), "finished": finished, "events": events}))


if __name__ == "__main__":
    main()
