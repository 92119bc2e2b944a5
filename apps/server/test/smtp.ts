// A real SMTP server for tests: Tranche's worker sends to it through nodemailer, tests read what arrived.
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface TestMailbox {
  url: string;
  messages: ParsedMail[];
  /** Messages to one address, oldest first. */
  to(address: string): ParsedMail[];
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestMailbox> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) =>
      messages.filter((mail) =>
        (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) => to?.text.includes(address)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The one action link of a Tranche email (HTML and text carry the same). */
export function actionLink(mail: ParsedMail): URL {
  const match = mail.text?.match(/https?:\/\/\S+/);
  if (!match) throw new Error(`no link in "${mail.subject}"`);
  return new URL(match[0]);
}
