// The streaming floor (issue 18): a program that only reads one streamed answer
// with the official SDK, as cheaply as the SDK allows, and writes nothing per delta.
// Usage: node read-stream.js anthropic|openai BASE_URL USER_TEXT
// It counts the characters of text and of tool-call arguments it received and
// prints them once at the end, so a short or broken stream is noticed.
const [provider, baseURL, userText] = process.argv.slice(2);
if (!provider || !baseURL || !userText) {
  process.stderr.write("usage: node read-stream.js anthropic|openai BASE_URL USER_TEXT\n");
  process.exit(2);
}
let text = 0;
let toolArguments = 0;
if (provider === "anthropic") {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const client = new Anthropic({ apiKey: "bench-placeholder", baseURL });
  const stream = await client.messages.create({ model: "claude-sonnet-5-5", max_tokens: 1024, messages: [{ role: "user", content: userText }], stream: true });
  for await (const event of stream) {
    if (event.type !== "content_block_delta") continue;
    if (event.delta.type === "text_delta") text += event.delta.text.length;
    else if (event.delta.type === "input_json_delta") toolArguments += event.delta.partial_json.length;
  }
} else if (provider === "openai") {
  const { default: OpenAI } = await import("openai");
  const client = new OpenAI({ apiKey: "bench-placeholder", baseURL });
  const stream = await client.chat.completions.create({
    model: "gpt-4.1",
    messages: [{ role: "user", content: userText }],
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    if (!delta) continue;
    if (delta.content) text += delta.content.length;
    for (const call of delta.tool_calls ?? []) toolArguments += call.function?.arguments?.length ?? 0;
  }
} else {
  process.stderr.write(`unknown provider ${provider}: anthropic or openai\n`);
  process.exit(2);
}
process.stdout.write(`${JSON.stringify({ text, toolArguments })}\n`);
