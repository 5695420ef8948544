// How docs/images/diff-comment.png was made: docs/images/diff-comment.md (written by test/cli/diff.cli.test.ts)
// rendered as GitHub-flavoured Markdown with marked (npm install --no-save marked), then
//   node docs/images/render-comment.mjs docs/images/diff-comment.md /tmp/comment.html
//   chromium-headless-shell --no-sandbox --hide-scrollbars --window-size=1220,1500 --screenshot=docs/images/diff-comment.png file:///tmp/comment.html
// (Debian package chromium-headless-shell; fonts-dejavu-core and fonts-noto-color-emoji for the text and icons).
import { marked } from "marked";
import fs from "fs";
const md = fs.readFileSync(process.argv[2], "utf8");
const body = marked.parse(md, { gfm: true });
// GitHub-like comment styling (system fonts, bordered tables, folded details open for the picture).
const css = `body{font-family:-apple-system,"Segoe UI","DejaVu Sans",Helvetica,Arial,sans-serif,"Noto Color Emoji";font-size:14px;line-height:1.5;color:#1f2328;margin:0;background:#fff}
.comment{max-width:1180px;margin:16px;border:1px solid #d1d9e0;border-radius:6px}
.head{background:#f6f8fa;border-bottom:1px solid #d1d9e0;padding:8px 16px;color:#59636e;font-size:13px}
.body{padding:8px 16px 16px}
h2{font-size:1.5em;border-bottom:1px solid #d1d9e0;padding-bottom:.3em}h3{font-size:1.25em}
table{border-collapse:collapse;display:block;overflow:auto;margin:0 0 16px}th,td{border:1px solid #d1d9e0;padding:6px 13px}th{font-weight:600}tr:nth-child(2n){background:#f6f8fa}
code{font-family:"DejaVu Sans Mono",monospace;font-size:85%;background:rgba(129,139,152,.12);padding:.2em .4em;border-radius:6px}
pre{background:#f6f8fa;padding:16px;overflow:auto;border-radius:6px;font-size:85%}pre code{background:none;padding:0}
details summary{cursor:pointer}`;
fs.writeFileSync(
    process.argv[3],
    `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head><body><div class="comment"><div class="head"><b>github-actions</b> bot commented</div><div class="body">${body}</div></div></body></html>`,
);
