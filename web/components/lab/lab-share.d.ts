// Types of <lab-share> (web/components/lab/lab-share.js): share and export for an <attention-lab>.
import type { AttentionLab } from '../attention-lab.js';

/** The page's own URL options kept in the links (web/lab/url.js). */
export interface PageOptions {
  theme?: 'light' | 'dark' | 'auto';
  /** 'lab', or a part of the lesson, in its order: 'step' | 'output' | 'heads' | 'variance' | 'saturation' | 'gradient' | 'overflow' */
  view?: string;
  /** 'en' | 'nb', or '' for the page's language */
  lang?: string;
  /** false: the embedded page shows no share panel (share=0) */
  share?: boolean;
}

/** A file of share and export (web/views/export.js). */
export interface ExportedFile {
  /** what it holds, e.g. 'attention-cat-dk64-unscaled-heatmap.png' (the numbers': no word) */
  name: string;
  /** 'image/png' | 'image/svg+xml' | 'text/csv' | 'application/json' */
  type: string;
  blob: Blob;
  /** a figure's size in CSS px (a PNG has twice as many pixels each way) */
  width?: number;
  height?: number;
}

/** How a figure is exported (the share panel's choices, by default). */
export interface ExportOptions {
  colours?: 'shown' | 'light' | 'dark';
  background?: boolean;
}

/**
 * Attributes: `for` (the id of the <attention-lab>), `theme` ('light' | 'dark' | 'auto', as the
 * lab's), `lang` (the language of its text: 'en' or 'nb'; by default the nearest lang attribute's).
 */
export class LabShare extends HTMLElement {
  /** The lab it shares (by default the element named by `for`). */
  lab: AttentionLab | null;
  page: PageOptions;
  /** The iframe height of the embed code in px (default: the lab's and this element's, measured). */
  frameHeight: number;
  /** index.html beside this module, with the lab's settings as URL parameters. */
  readonly link: string;
  /** An <iframe> of embed.html with the lab's settings, and the <script> of embed.js. */
  readonly embedCode: string;
  /**
   * Rejects with a RangeError naming a wrong `what`, `format` or `colours`, or a lab without a
   * result yet. Options (by default the panel's choices): `colours` 'shown' (the lab's as on
   * screen) | 'light' | 'dark'; `background` false for none (a slide's own colour shows through).
   */
  export(what: 'heatmap' | 'bars', format: 'png' | 'svg', options?: ExportOptions): Promise<ExportedFile>;
  export(what: 'numbers', format: 'csv' | 'json', options?: ExportOptions): Promise<ExportedFile>;
}

declare global {
  interface HTMLElementTagNameMap {
    'lab-share': LabShare;
  }
}
