/** The web UI's entry (scripts/build-web.js bundles it into dist/web/assets/). */
import { render } from "preact";
import { App } from "./components/app.js";
import "./styles.css";

render(<App />, document.getElementById("app")!);
