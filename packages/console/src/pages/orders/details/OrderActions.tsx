import { type Order, type OrderAction, staffOrderActions } from '@medlocker/core';
import { useEffect, useRef, useState } from 'react';
import { ApiError, messageOf, rpc } from '../../../api/client.ts';
import { queryClient } from '../../../api/queries.ts';
import { type MethodRef, useAllowed } from '../../../state/access.ts';
import { Button } from '../../../ui/Button.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { ReasonDialog } from '../ReasonDialog.tsx';
import { t } from './i18n/index.ts';
import { RevealPinDialog } from './RevealPinDialog.tsx';

type StaffAction = ReturnType<typeof staffOrderActions>[number];

const buttons: { action: StaffAction; method: MethodRef; variant: 'secondary' | 'danger' }[] = [
  { action: 'revealPin', method: ['orders', 'setRevealPinReason'], variant: 'secondary' },
  { action: 'resendMessage', method: ['patientOrders', 'resendOrderReadyMessage'], variant: 'secondary' },
  { action: 'sendExpiryReminder', method: ['patientOrders', 'sendOrderExpiryMessage'], variant: 'secondary' },
  { action: 'markCollected', method: ['orders', 'markCollected'], variant: 'secondary' },
  { action: 'markRemoved', method: ['orders', 'markRemoved'], variant: 'secondary' },
  { action: 'cancel', method: ['orders', 'cancel'], variant: 'danger' },
];

/** Someone (or a locker) moved the order first: the server's 409 names the state it is in now. */
const isRefusedMove = (e: unknown): e is ApiError => e instanceof ApiError && e.code === 'INVALID_TRANSITION';

/** The patient messages staff may ask for: sent at once (the server sends one for a double press). */
const messageMethods = {
  resendMessage: 'resendOrderReadyMessage',
  sendExpiryReminder: 'sendOrderExpiryMessage',
} as const;
const isMessageAction = (action: OrderAction): action is keyof typeof messageMethods => action in messageMethods;

type OrderEvents = {
  onDone: (message: string) => void;
  onRefused: (message: string) => void;
  onWarning: (message: string) => void;
};

/**
 * The order page's actions: those core's `staffOrderActions` allows in the order's state (Expired
 * included) and the contract lets this user call. Moves are behind a confirmation; a move refused
 * because the order changed meanwhile closes the dialog, says so on the page and reloads the order.
 * The patient messages (Resend message, Send expiry reminder) go at once: the answer says what was
 * sent, or why nothing was (a warning), and the timeline shows the request.
 */
export function OrderActions({ order, ...events }: { order: Order } & OrderEvents) {
  const moves = useOrderMoves(order, events);
  const allowed = new Set<OrderAction>(staffOrderActions(order, Date.now()));
  const shown = useAllowed(buttons).filter((b) => allowed.has(b.action));
  return (
    <>
      {shown.map((b) => (
        <Button
          key={b.action}
          variant={b.variant}
          isPending={moves.sending === b.action}
          onPress={() => (isMessageAction(b.action) ? void moves.sendMessage(b.action) : moves.setOpen(b.action))}
        >
          {t(`orderPage.action.${b.action}` as const)}
        </Button>
      ))}
      <MoveDialogs order={order} moves={moves} />
    </>
  );
}

/** Which dialog is open, and the moves and messages with what their answers lead to. */
function useOrderMoves(order: Order, { onDone, onRefused, onWarning }: OrderEvents) {
  const [open, setOpenAction] = useState<OrderAction | null>(null);
  const opener = useFocusReturn(open !== null);
  const setOpen = (action: OrderAction | null) => {
    if (action) opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpenAction(action);
  };
  const [pending, setPending] = useState(false);
  const [sending, setSending] = useState<OrderAction | null>(null);
  const [error, setError] = useState<string>();

  const close = () => {
    setOpen(null);
    setError(undefined);
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['orders'] });

  /** Runs a move; a refusal that is not about the order's state is the dialog's to show. */
  const attempt = async <T,>(work: () => Promise<T>, done?: string): Promise<T | undefined> => {
    try {
      const result = await work();
      if (done) {
        close();
        onDone(done);
      }
      void refresh();
      return result;
    } catch (e) {
      if (!isRefusedMove(e)) throw e;
      close();
      onRefused(e.message);
      void refresh();
      return undefined;
    }
  };

  return {
    open,
    setOpen,
    pending,
    sending,
    error,
    close,
    attempt,
    /** A confirmed move: the dialog shows the wait and any other refusal. */
    async confirm(work: () => Promise<unknown>, done: string) {
      setPending(true);
      setError(undefined);
      try {
        await attempt(work, done);
      } catch (e) {
        setError(messageOf(e));
      } finally {
        setPending(false);
      }
    },
    async sendMessage(action: keyof typeof messageMethods) {
      setSending(action);
      try {
        const answer = await attempt(() => rpc('patientOrders', messageMethods[action], { orderId: order.id }));
        if (answer) (answer.sent ? onDone : onWarning)(answer.message);
      } catch (e) {
        onRefused(messageOf(e));
      } finally {
        setSending(null);
      }
    },
  };
}

/** Reveal PIN, Mark collected, Mark removed and Cancel order, each asking first. */
function MoveDialogs({ order, moves }: { order: Order; moves: ReturnType<typeof useOrderMoves> }) {
  const { open, close, attempt, confirm } = moves;
  const common = {
    isPending: moves.pending,
    error: moves.error,
    cancelLabel: t('orderPage.action.goBack'),
    onOpenChange: (isOpen: boolean) => !isOpen && !moves.pending && close(),
  };
  return (
    <>
      {open === 'revealPin' && (
        <RevealPinDialog
          order={order}
          onClose={close}
          reveal={async (reason) => {
            const answer = await attempt(() => rpc('orders', 'setRevealPinReason', { id: order.id, reason }));
            return answer?.pin;
          }}
        />
      )}

      <ConfirmDialog
        {...common}
        title={t('orderPage.collected.title', { reference: order.reference })}
        isOpen={open === 'markCollected'}
        confirmLabel={t('orderPage.collected.confirm')}
        tone="primary"
        onConfirm={() =>
          void confirm(() => rpc('orders', 'markCollected', { id: order.id }), t('orderPage.collected.done'))
        }
      >
        <p>{t('orderPage.collected.body', { patientName: order.patientName })}</p>
      </ConfirmDialog>

      <ConfirmDialog
        {...common}
        title={t('orderPage.removed.title', { reference: order.reference })}
        isOpen={open === 'markRemoved'}
        confirmLabel={t('orderPage.removed.confirm')}
        onConfirm={() =>
          void confirm(() => rpc('orders', 'markRemoved', { id: order.id }), t('orderPage.removed.done'))
        }
      >
        <p>{t('orderPage.removed.body')}</p>
      </ConfirmDialog>

      {open === 'cancel' && (
        <ReasonDialog
          title={t('orderPage.cancel.title', { reference: order.reference })}
          label={t('orderPage.cancel.reason')}
          cancelLabel={t('orderPage.cancel.keep')}
          confirmLabel={t('orderPage.cancel.confirm')}
          onClose={close}
          onConfirm={async (reason) => {
            await attempt(() => rpc('orders', 'cancel', { id: order.id, reason }), t('orderPage.cancel.done'));
          }}
        >
          <p>
            {t('orderPage.cancel.body')}
            {order.status === 'loaded' ? t('orderPage.cancel.bodyLoaded') : ''}
          </p>
        </ReasonDialog>
      )}
    </>
  );
}

/**
 * Focus back on the button that opened a dialog once it closes, when the closing left it nowhere (the
 * Reveal PIN dialog swaps its question for the PIN, so the dialog's own return has no button to go back to).
 */
function useFocusReturn(isOpen: boolean) {
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (isOpen) return;
    const button = opener.current;
    opener.current = null;
    // After the dialog's own return (react-aria's, a frame after it unmounts) has had its turn.
    const frame = requestAnimationFrame(() => {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (button?.isConnected && lost) button.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [isOpen]);
  return opener;
}
