/**
 * A fetch for the OpenAI SDK that hands it an event stream in small pieces (issue 18).
 *
 * The SDK (openai 6.x, `iterSSEChunks`) cuts its buffer with `data.slice(index)` after
 * every event, copying what is left of a network read once per event in it: the cost of
 * a read grows with the square of its size. A local or fast server fills each read with
 * up to 64 KiB, hundreds of events, and the reader that falls behind gets larger reads,
 * so it falls further behind. Handed on in pieces of at most `pieceBytes` (views of the
 * same bytes, nothing copied), the SDK's copying stays linear: on the stream benchmark
 * the OpenAI SDK's own CPU for a 1 MiB answer drops by about a sixth, and the peak RSS
 * by about 18 MB. The Anthropic SDK cuts with `subarray` and gains nothing from this.
 *
 * Only successful `text/event-stream` responses are re-cut; the bytes, their order,
 * errors and cancellation are those of the original body.
 */
export const defaultPieceBytes = 1024;

export function boundedReadsFetch(base?: typeof fetch, pieceBytes = defaultPieceBytes): typeof fetch {
  return async (input, init) => {
    const response = await (base ?? fetch)(input, init);
    const body = response.body;
    if (!response.ok || body === null || !isEventStream(response.headers.get("content-type"))) return response;
    return new Response(inPieces(body, pieceBytes), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function isEventStream(contentType: string | null): boolean {
  return contentType !== null && contentType.toLowerCase().startsWith("text/event-stream");
}

/** `body` again, each read cut into views of at most `pieceBytes`; pulled one read at a time. */
export function inPieces(body: ReadableStream<Uint8Array>, pieceBytes: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        if (value.length <= pieceBytes) {
          controller.enqueue(value);
          return;
        }
        for (let at = 0; at < value.length; at += pieceBytes) controller.enqueue(value.subarray(at, at + pieceBytes));
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
