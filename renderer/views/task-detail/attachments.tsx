import { useRef, useState } from 'react';
import { uploadRules } from '../../../shared/api/attachments';
import type { AttachmentRow } from '../../../shared/bridge';
import type { EditCommand, EditResult } from '../../../shared/edits/commands';
import { useApp } from '../../data/app-store';
import { bytes, splitExtension } from '../../lib/format';
import { Button, IconButton } from '../../ui/button';
import { ConfirmDialog } from '../../ui/dialog';
import { IconPaperclip, IconTrash } from '../../ui/icons';
import { SyncMark } from '../../ui/sync-mark';
import { toast } from '../../ui/toast';

export interface AttachmentsProps {
  taskId: number;
  items: readonly AttachmentRow[];
  onEdit: (cmd: EditCommand) => Promise<EditResult | null>;
  onOpen: (a: AttachmentRow) => void;
}

interface Batch {
  mutationId: number;
  ids: number[];
  sizes: number[];
}

const toBase64 = async (file: File) => {
  const buf = new Uint8Array(await file.arrayBuffer());
  let bin = '';
  for (let i = 0; i < buf.length; i += 0x8000)
    bin += String.fromCharCode(...buf.subarray(i, i + 0x8000));
  return btoa(bin);
};

/** Why a file cannot go, in words, before anything is queued (the plan's rules). */
export function refuseReason(file: { name: string; size: number }): string | null {
  const ext = splitExtension(file.name)[1].toLowerCase();
  if (!(uploadRules.allowedExtensions as readonly string[]).includes(ext))
    return `${file.name}: .${ext || '(none)'} files are not accepted`;
  if (file.size > uploadRules.maxFileBytes)
    return `${file.name}: larger than ${bytes(uploadRules.maxFileBytes)}`;
  return null;
}

/**
 * A task's files: drop or pick files to upload (queued offline, sent with progress per file),
 * rename keeping the extension, delete with a confirmation, open (from the cache offline).
 */
export function Attachments({ taskId, items, onEdit, onOpen }: AttachmentsProps) {
  const [over, setOver] = useState(false);
  const [batches, setBatches] = useState<Batch[]>([]);
  const [deleting, setDeleting] = useState<AttachmentRow | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const uploads = useApp((s) => s.uploads);

  const upload = async (files: File[]) => {
    const ok: File[] = [];
    for (const f of files) {
      const why = refuseReason(f);
      if (why) toast(why, 'error');
      else ok.push(f);
    }
    if (!ok.length) return;
    const payload = await Promise.all(
      ok.map(async (f) => ({
        name: f.name,
        contentType: f.type || undefined,
        dataBase64: await toBase64(f),
      })),
    );
    const res = await onEdit({ kind: 'attachment.upload', taskId, files: payload });
    if (res?.mutationId)
      setBatches((b) => [
        ...b,
        { mutationId: res.mutationId!, ids: res.ids, sizes: ok.map((f) => f.size) },
      ]);
  };

  /** Bytes of one file done, from its batch's running total (files go in order). */
  const progressOf = (a: AttachmentRow): [number, number] | null => {
    if (a.sync !== 'pending') return null;
    const batch = batches.find((b) => b.ids.includes(a.attachmentId));
    const size = a.totalSize ?? a.size ?? 0;
    if (batch) {
      const p = uploads[batch.mutationId];
      const i = batch.ids.indexOf(a.attachmentId);
      const before = batch.sizes.slice(0, i).reduce((s, x) => s + x, 0);
      const mine = batch.sizes[i] ?? size;
      const done = p ? Math.max(0, Math.min(mine, p.completedBytes - before)) : 0;
      return [done, mine];
    }
    if (a.completedBytes !== undefined && a.completedBytes !== null && size)
      return [a.completedBytes, size];
    return null;
  };

  return (
    <section
      className={`section dropzone${over ? ' is-over' : ''}`}
      aria-labelledby="files-h"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        void upload(Array.from(e.dataTransfer.files));
      }}
    >
      <div className="section-head">
        <h3 id="files-h">Files</h3>
        <Button
          size="sm"
          variant="ghost"
          icon={<IconPaperclip />}
          onClick={() => input.current?.click()}
        >
          Attach
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          className="sr-only"
          aria-label="Attach files"
          tabIndex={-1}
          onChange={(e) => {
            void upload(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
      </div>
      {items.length === 0 ? (
        <p className="muted drop-hint">Drop files here to attach them.</p>
      ) : (
        <ul className="files" aria-label="Attachments">
          {items.map((a) => (
            <FileRow
              key={a.attachmentId}
              a={a}
              progress={progressOf(a)}
              onRename={(fileName) =>
                void onEdit({ kind: 'attachment.rename', attachmentId: a.attachmentId, fileName })
              }
              onDelete={() => setDeleting(a)}
              onOpen={() => onOpen(a)}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this file?"
        message={`“${deleting?.fileName ?? ''}” will be removed from the task for everyone.`}
        confirmLabel="Delete file"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting)
            void onEdit({ kind: 'attachment.delete', attachmentId: deleting.attachmentId });
          setDeleting(null);
        }}
      />
    </section>
  );
}

function FileRow({
  a,
  progress,
  onRename,
  onDelete,
  onOpen,
}: {
  a: AttachmentRow;
  progress: [number, number] | null;
  onRename: (base: string) => void;
  onDelete: () => void;
  onOpen: () => void;
}) {
  const [base, ext] = splitExtension(a.fileName);
  const [draft, setDraft] = useState<string | null>(null);
  const pct = progress?.[1] ? Math.round((progress[0] / progress[1]) * 100) : null;
  return (
    <li className="file" data-attachment-id={a.attachmentId} data-sync={a.sync}>
      <div className="row">
        {draft === null ? (
          <button type="button" className="link grow ellipsis" onClick={onOpen} title="Open">
            {a.fileName}
          </button>
        ) : (
          <form
            className="row grow"
            onSubmit={(e) => {
              e.preventDefault();
              if (draft.trim() && draft.trim() !== base) onRename(draft.trim());
              setDraft(null);
            }}
          >
            <input
              className="input grow"
              aria-label={`New name for ${a.fileName}`}
              value={draft}
              // biome-ignore lint/a11y/noAutofocus: the user asked to rename this file
              autoFocus
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') setDraft(null);
              }}
            />
            {ext ? <span className="muted">.{ext}</span> : null}
            <Button size="sm" type="submit">
              Save
            </Button>
          </form>
        )}
        <span className="muted">{a.size ? bytes(a.size) : ''}</span>
        <SyncMark sync={a.sync} />
        {draft === null ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setDraft(base)}
            aria-label={`Rename ${a.fileName}`}
          >
            Rename
          </Button>
        ) : null}
        <IconButton label={`Delete ${a.fileName}`} icon={<IconTrash />} onClick={onDelete} />
      </div>
      {pct !== null ? (
        <div
          className="progress"
          role="progressbar"
          aria-label={`Uploading ${a.fileName}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
        >
          <span style={{ width: `${pct}%` }} />
        </div>
      ) : null}
    </li>
  );
}
