// fontkit (pdfkit's own font parser) ships no types: what the certificate uses of it.
declare module "fontkit" {
  /** A parsed font: pdfkit embeds one as it is (it takes any object with a layout method) without parsing it again. */
  export interface Font {
    layout(text: string): unknown;
  }
  export function create(buffer: Uint8Array): Font;
}
