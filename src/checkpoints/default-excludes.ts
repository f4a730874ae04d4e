/**
 * Folders and files that are rebuilt, downloaded or machine-local: snapshotting them
 * would make checkpoints slow and huge for no gain. The workspace's own .gitignore
 * files are honoured on top of these.
 */
export const defaultExcludePatterns: readonly string[] = [
  "node_modules/",
  "bower_components/",
  "jspm_packages/",
  "dist/",
  "build/",
  "out/",
  ".next/",
  ".nuxt/",
  ".svelte-kit/",
  ".angular/",
  ".turbo/",
  ".parcel-cache/",
  ".cache/",
  "coverage/",
  ".nyc_output/",
  ".venv/",
  "venv/",
  "__pycache__/",
  "*.pyc",
  ".pytest_cache/",
  ".mypy_cache/",
  ".ruff_cache/",
  ".tox/",
  "target/",
  ".gradle/",
  ".terraform/",
  ".DS_Store",
  "Thumbs.db",
  "*.swp",
];
