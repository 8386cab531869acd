// Connect protocol client (JSON codec) for the browser: unary calls and server streams.
// The server side is the connectrpc runtime; this client follows the Connect protocol
// specification (unary: POST application/json; streams: application/connect+json with
// 5-byte envelopes, flag 0x02 marking the end-of-stream message). See docs/web.md.

export class RpcError extends Error {
  constructor(code, message, reason = "", metadata = {}) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.metadata = metadata;
  }
}

function decodeErrorInfo(value) {
  // google.rpc.ErrorInfo: field 1 reason (string), field 2 domain, field 3 metadata map.
  const bytes = Uint8Array.from(atob(value.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  let i = 0;
  const varint = () => { let x = 0, s = 0, b; do { b = bytes[i++]; x |= (b & 0x7f) << s; s += 7; } while (b & 0x80); return x; };
  const text = new TextDecoder();
  while (i < bytes.length) {
    const tag = varint(); const len = varint();
    if (tag === 0x0a) return text.decode(bytes.slice(i, i + len));
    i += len;
  }
  return "";
}

function toError(body, status) {
  const code = body && body.code ? body.code : `http_${status}`;
  let reason = "";
  for (const d of (body && body.details) || []) {
    if (d.type === "google.rpc.ErrorInfo") reason = decodeErrorInfo(d.value);
  }
  return new RpcError(code, (body && body.message) || `HTTP ${status}`, reason);
}

function headers(token, contentType) {
  const h = { "content-type": contentType, "connect-protocol-version": "1" };
  if (token) h.authorization = `Bearer ${token}`;
  return h;
}

export async function call(service, method, request = {}, token = null) {
  const answer = await fetch(`/annales.v1.${service}/${method}`, {
    method: "POST", headers: headers(token, "application/json"), body: JSON.stringify(request),
  });
  const text = await answer.text();
  let body = null;
  try { body = text ? JSON.parse(text) : {}; } catch (e) { body = null; }
  if (!answer.ok) throw toError(body, answer.status);
  return body;
}

function envelope(json) {
  const data = new TextEncoder().encode(JSON.stringify(json));
  const out = new Uint8Array(5 + data.length);
  new DataView(out.buffer).setUint32(1, data.length);
  out.set(data, 5);
  return out;
}

// Calls onMessage(json) for each streamed message; resolves at the end of the stream,
// rejects with RpcError on an error end. Abort with the returned controller.
export function stream(service, method, request, token, onMessage) {
  const controller = new AbortController();
  const done = (async () => {
    const answer = await fetch(`/annales.v1.${service}/${method}`, {
      method: "POST", headers: headers(token, "application/connect+json"),
      body: envelope(request), signal: controller.signal,
    });
    if (!answer.ok) {
      let body = null;
      try { body = await answer.json(); } catch (e) { body = null; }
      throw toError(body, answer.status);
    }
    const reader = answer.body.getReader();
    let buffer = new Uint8Array(0);
    const text = new TextDecoder();
    for (;;) {
      const { value, done: finished } = await reader.read();
      if (value) {
        const joined = new Uint8Array(buffer.length + value.length);
        joined.set(buffer); joined.set(value, buffer.length); buffer = joined;
      }
      while (buffer.length >= 5) {
        const view = new DataView(buffer.buffer, buffer.byteOffset);
        const flags = buffer[0]; const size = view.getUint32(1);
        if (buffer.length < 5 + size) break;
        const json = JSON.parse(text.decode(buffer.slice(5, 5 + size)) || "{}");
        buffer = buffer.slice(5 + size);
        if (flags & 0x02) {
          if (json.error) throw toError(json.error, 200);
          return;
        }
        onMessage(json);
      }
      if (finished) return;
    }
  })();
  return { controller, done };
}
