import type { Attachment } from 'botbuilder';
import { randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import { isObject, str } from '../../kernel/protocols/decoder.ts';
import type { RichText } from '../../kernel/rich/index.ts';

/** The card Teams asks a person with before a bot may put a file in their OneDrive. */
export const FILE_CONSENT_CARD = 'application/vnd.microsoft.teams.card.file.consent';
/** The card that shows a file the bot uploaded. */
const FILE_INFO_CARD = 'application/vnd.microsoft.teams.card.file.info';
/** The invoke Teams sends when the person allows or declines. */
export const FILE_CONSENT_INVOKE = 'fileConsent/invoke';

/**
 * The most a file sent through consent may be: one PUT to the upload URL takes up to 60 MiB, and
 * the file waits in memory until the person answers.
 */
export const CONSENT_FILE_BYTES = 50 * 1024 * 1024;
/** How long an offer waits for its answer, and how many wait at once (the oldest goes first). */
const OFFER_MS = 30 * 60_000;
const OFFERS_KEPT = 20;

/** A file offered, waiting for the person's answer. */
export interface FileOffer {
  filename: string;
  bytes: Buffer;
  caption?: RichText;
  at: number;
}

/** Where Teams lets the bot put the file, once allowed (OneDrive's upload session, pre-authorized). */
interface UploadInfo {
  name: string;
  uploadUrl: string;
  contentUrl: string;
  uniqueId: string;
  fileType: string;
}

/** The person's answer to a consent card, as its invoke says it. */
export type ConsentAnswer = { offer: string; accepted: false } | { offer: string; accepted: true; upload: UploadInfo } | undefined;

/**
 * Files past what a message holds, in a personal chat (the one place Teams lets a bot share
 * one without SharePoint): a consent card asks the person first; once they allow it, the bot
 * uploads the file to their OneDrive through the upload URL Teams gives and shows it as a file
 * card. The files wait here, in memory, for their answer: a restart forgets them, and the
 * answer then says to ask again.
 */
export class FileOffers {
  private readonly offers = new Map<string, FileOffer>();

  /** The consent card for the file, which holds it until answered. */
  offer(filename: string, bytes: Buffer, caption: RichText | undefined, now = Date.now()): Attachment {
    for (const [id, offer] of this.offers) if (now - offer.at > OFFER_MS || this.offers.size >= OFFERS_KEPT) this.offers.delete(id);
    const id = randomUUID();
    this.offers.set(id, { filename, bytes, ...(caption ? { caption } : {}), at: now });
    return {
      contentType: FILE_CONSENT_CARD,
      name: filename,
      content: { description: filename, sizeInBytes: bytes.length, acceptContext: { offer: id }, declineContext: { offer: id } },
    };
  }

  /** The file an answer is about, taken (it is answered once), while it waits. */
  take(id: string, now = Date.now()): FileOffer | undefined {
    const offer = this.offers.get(id);
    this.offers.delete(id);
    return offer && now - offer.at <= OFFER_MS ? offer : undefined;
  }
}

/** A consent invoke's value, read as Teams sends it; undefined when it is not one. */
export function consentAnswer(value: unknown): ConsentAnswer {
  if (!isObject(value) || !isObject(value.context)) return undefined;
  const offer = str(value.context.offer);
  if (!offer) return undefined;
  if (value.action !== 'accept') return { offer, accepted: false };
  const info = isObject(value.uploadInfo) ? value.uploadInfo : {};
  const [name, uploadUrl, contentUrl, uniqueId] = [str(info.name), str(info.uploadUrl), str(info.contentUrl), str(info.uniqueId)];
  if (!name || !uploadUrl || !contentUrl || !uniqueId) return undefined;
  return { offer, accepted: true, upload: { name, uploadUrl, contentUrl, uniqueId, fileType: str(info.fileType) ?? extname(name).slice(1) } };
}

/** Puts the file's bytes at its upload URL, in one range; throws with what the upload answered. */
export async function uploadFile(upload: UploadInfo, bytes: Buffer): Promise<void> {
  const response = await fetch(upload.uploadUrl, {
    method: 'PUT',
    headers: { 'content-length': String(bytes.length), 'content-range': `bytes 0-${Math.max(0, bytes.length - 1)}/${bytes.length}` },
    body: bytes,
  });
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new Error(`the upload was answered ${response.status}`);
}

/** The card that shows the uploaded file in the chat. */
export function fileInfoCard(upload: UploadInfo): Attachment {
  return { contentType: FILE_INFO_CARD, name: upload.name, contentUrl: upload.contentUrl, content: { uniqueId: upload.uniqueId, fileType: upload.fileType } };
}
