/**
 * Email bodies from one small template (HTML and plain text from the same parts), so every message carries the
 * product name, one action link and why the person receives it. See ADR 013 for why not React Email.
 */
export interface EmailContent {
  subject: string;
  /** First line of the message, e.g. "You are invited to Tranche". */
  heading: string;
  /** Paragraphs before the action. */
  paragraphs: string[];
  /** Optional list (a digest's items) shown after the paragraphs. */
  items?: { title: string; detail: string }[];
  action: { label: string; url: string };
  /** Why this person receives this email. */
  reason: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  /** The action link, kept apart so the Outbox can show it. */
  link: string;
}

const PRODUCT = "Tranche";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );

export function renderEmail(content: EmailContent): RenderedEmail {
  const { heading, paragraphs, items = [], action, reason } = content;
  const text = [
    PRODUCT,
    "",
    heading,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    ...(items.length ? [...items.map((item) => `- ${item.title}: ${item.detail}`), ""] : []),
    `${action.label}: ${action.url}`,
    "",
    "--",
    reason,
  ].join("\n");

  const p = (inner: string) => `<p style="margin:0 0 16px;font-size:15px;line-height:22px;color:#1f2937">${inner}</p>`;
  const list = items.length
    ? `<ul style="margin:0 0 16px;padding-left:20px;color:#1f2937">${items
        .map(
          (item) =>
            `<li style="margin:0 0 8px;font-size:14px;line-height:20px"><strong>${escapeHtml(item.title)}</strong>: ${escapeHtml(item.detail)}</li>`,
        )
        .join("")}</ul>`
    : "";
  const html = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<p style="margin:0 0 24px;font-size:18px;font-weight:700;color:#1d4ed8">${PRODUCT}</p>
<h1 style="margin:0 0 16px;font-size:20px;line-height:28px;color:#111827">${escapeHtml(heading)}</h1>
${paragraphs.map((para) => p(escapeHtml(para))).join("\n")}
${list}
<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-size:15px;font-weight:600">${escapeHtml(action.label)}</a></p>
${p(`Or open this link: <a href="${escapeHtml(action.url)}" style="color:#1d4ed8;word-break:break-all">${escapeHtml(action.url)}</a>`)}
<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0">
<p style="margin:0;font-size:12px;line-height:18px;color:#6b7280">${escapeHtml(reason)}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
  return { subject: content.subject, html, text, link: action.url };
}

/** An absolute link into the app. */
export const appUrl = (publicUrl: string, path: string) => new URL(path, publicUrl).toString();
