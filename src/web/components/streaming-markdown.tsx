import { Component, createRef } from "preact";
import { MarkdownWriter } from "../markdown-dom.js";

interface Props {
  text: string;
  partial: boolean;
  /** Changes whenever the text may have (the text of a message grows in place). */
  revision: number;
}

/** A message's text as markdown, drawn by appending (markdown-dom.ts): Preact never diffs what is inside. */
export class StreamingMarkdown extends Component<Props> {
  private root = createRef<HTMLDivElement>();
  private writer: MarkdownWriter | undefined;

  override componentDidMount(): void {
    this.writer = new MarkdownWriter(this.root.current!);
    this.writer.update(this.props.text, !this.props.partial);
  }

  override shouldComponentUpdate(next: Props): boolean {
    if (next.revision !== this.props.revision || next.partial !== this.props.partial) this.writer?.update(next.text, !next.partial);
    return false;
  }

  override componentWillUnmount(): void {
    this.writer?.dispose();
  }

  render() {
    return <div class="md" ref={this.root} />;
  }
}

/** Text that grows (a command's output): only its end is kept on screen while it runs. */
export class StreamingText extends Component<Props & { limit: number }> {
  private root = createRef<HTMLPreElement>();

  override componentDidMount(): void {
    this.draw(this.props);
  }

  override shouldComponentUpdate(next: Props & { limit: number }): boolean {
    if (next.revision !== this.props.revision || next.partial !== this.props.partial) this.draw(next);
    return false;
  }

  private draw(props: Props & { limit: number }): void {
    const element = this.root.current;
    if (element === null) return;
    const text = props.text.length > props.limit ? `…${props.text.slice(props.text.length - props.limit)}` : props.text;
    element.textContent = text;
    if (props.partial) element.scrollTop = element.scrollHeight;
  }

  render() {
    return <pre class="output" ref={this.root} />;
  }
}
