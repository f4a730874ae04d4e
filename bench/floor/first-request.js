// The start-up floor (issue 18): a program that only makes cairn's first request
// with the official SDK, and reads the answer. Usage: node first-request.js anthropic|openai BASE_URL
const [provider, baseURL] = process.argv.slice(2);
if (provider === "anthropic") {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const client = new Anthropic({ apiKey: "bench-placeholder", baseURL });
  const stream = await client.messages.create({ model: "claude-sonnet-5-5", max_tokens: 1024, messages: [{ role: "user", content: "go" }], stream: true });
  for await (const event of stream) void event;
} else {
  const { default: OpenAI } = await import("openai");
  const client = new OpenAI({ apiKey: "bench-placeholder", baseURL });
  const stream = await client.chat.completions.create({ model: "gpt-4.1", messages: [{ role: "user", content: "go" }], stream: true });
  for await (const chunk of stream) void chunk;
}
