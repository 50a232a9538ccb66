import { useEffect, useState } from 'react';
import { api, ApiError, isValidExtId, type Duplicate } from '../api.js';
import { DuplicateList, mergeDuplicates } from '../components/Duplicates.js';
import { CnhReader, PhotoCheck, type CnhRead } from '../components/CnhReader.js';
import { documentRecordOf, isExpired } from '../document-record.js';
import { GATE_OFF, livenessGateBlock, type LivenessGate } from '../advanced-liveness.js';
import { AdvancedLivenessOption, LivenessBlock } from '../components/AdvancedLiveness.js';
import { FaceCapture, LIVENESS_FRAMES, type FaceImage } from '../components/FaceCapture.js';
import { FingerCapture, type FingerImage } from '../components/FingerCapture.js';
import { Busy, Notice, Screen, useErrorText } from '../components/ui.js';
import { useI18n, type MessageKey } from '../i18n/index.js';
import { LivenessToggle } from './Decide.js';

const STEPS = ['id', 'face', 'finger', 'document', 'confirm'] as const;
type Step = (typeof STEPS)[number];

interface Outcome {
  part: string;
  ok: boolean;
  text: string;
}

/**
 * Enrollment: ext_id, guided face capture, fingerprints (reader or upload, several fingers),
 * optional CNH reading (checked and corrected, kept across the steps and shown in the summary),
 * then one confirm that enrolls the face and adds every finger to the person (POST enroll per
 * finger: the station adds a finger to an existing person, so three fingers leave three templates).
 */
export function Enroll({ onBack, onEnrolled }: { onBack: () => void; onEnrolled: () => void }) {
  const { t } = useI18n();
  const errorText = useErrorText();
  const [step, setStep] = useState<Step>('id');
  const [extId, setExtId] = useState('');
  const [face, setFace] = useState<FaceImage | null>(null);
  const [fingers, setFingers] = useState<FingerImage[]>([]);
  const [doc, setDoc] = useState<CnhRead | null>(null);
  const [liveness, setLiveness] = useState(false);
  /** The "Vivacidade avançada" option: while on, enrollment needs a live verdict for this identifier and face. */
  const [adv, setAdv] = useState<LivenessGate>(GATE_OFF);
  useEffect(() => setAdv((g) => (g.verdict ? { ...g, verdict: null } : g)), [extId, face]);
  const advBlocked = livenessGateBlock(adv) !== null;
  const [busy, setBusy] = useState(false);
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);
  /** Persons already enrolled whom this customer's captures match: searched when the summary opens, before the clerk confirms. */
  const [precheck, setPrecheck] = useState<{ busy: boolean; found: Duplicate[] }>({ busy: false, found: [] });
  /** Persons the station reported at enrollment (policy warn) or refused on (block). */
  const [reported, setReported] = useState<Duplicate[]>([]);
  const idValid = isValidExtId(extId);
  const index = STEPS.indexOf(step);
  const next = () => setStep(STEPS[Math.min(index + 1, STEPS.length - 1)]!);

  // De-duplication before the clerk confirms: a 1:N search of the face and of every finger.
  useEffect(() => {
    if (step !== 'confirm' || outcomes) return;
    let alive = true;
    setPrecheck({ busy: true, found: [] });
    void (async () => {
      const lists: Duplicate[][] = [];
      const asCandidates = (modality: 'face' | 'finger', d: { candidates?: Array<{ extId: string; score: number }> }) =>
        (d.candidates ?? []).map((c) => ({ ...c, modality }));
      if (face) lists.push(await api.identifyFace(face.base64, false).then((d) => asCandidates('face', d), () => []));
      for (const f of fingers) lists.push(await api.identifyFinger(f.base64, f.dpi).then((d) => asCandidates('finger', d), () => []));
      if (alive) setPrecheck({ busy: false, found: mergeDuplicates(lists, extId) });
    })();
    return () => {
      alive = false;
    };
  }, [step, face, fingers, extId, outcomes]);

  const confirm = async () => {
    if (advBlocked) return;
    setBusy(true);
    const results: Outcome[] = [];
    const seen: Duplicate[][] = [];
    const failed = (e: unknown) => {
      if (e instanceof ApiError && e.duplicates.length) seen.push(e.duplicates);
      return errorText(e);
    };
    try {
      if (face) {
        await api.enrollFace(extId, face.base64, liveness, face.frames).then(
          (dups) => {
            seen.push(dups);
            results.push({ part: t('modality.face'), ok: true, text: t('enroll.faceOk') });
          },
          (e: unknown) => results.push({ part: t('modality.face'), ok: false, text: failed(e) }),
        );
      }
      for (const [i, finger] of fingers.entries()) {
        try {
          seen.push(await api.enrollFinger(extId, finger.base64, finger.dpi));
          results.push({ part: `${t('modality.finger')} ${i + 1}`, ok: true, text: t('enroll.fingerOk') });
        } catch (e) {
          results.push({ part: `${t('modality.finger')} ${i + 1}`, ok: false, text: failed(e) });
        }
      }
      // The confirmed document is kept with the person once something of the person was enrolled.
      const record = doc && documentRecordOf(doc.values, doc.result.face, doc.selfie, face?.base64 ?? null);
      if (record && results.some((r) => r.ok)) {
        await api.saveDocument(extId, record).then(
          () => results.push({ part: t('enroll.document'), ok: true, text: t('enroll.docSaved') }),
          (e: unknown) => results.push({ part: t('enroll.document'), ok: false, text: errorText(e) }),
        );
      }
    } finally {
      setReported(mergeDuplicates(seen, extId));
      setOutcomes(results);
      setBusy(false);
      if (results.some((r) => r.ok)) onEnrolled();
    }
  };
  /** After an enrollment that stored nothing: back to the first refused capture (a refused face is cleared for a new capture). */
  const retry = () => {
    const faceRefused = outcomes?.some((o) => !o.ok && o.part === t('modality.face')) ?? false;
    if (faceRefused) setFace(null);
    setOutcomes(null);
    setReported([]);
    setStep(faceRefused ? 'face' : 'finger');
  };
  const reset = () => {
    setStep('id');
    setExtId('');
    setFace(null);
    setFingers([]);
    setDoc(null);
    setAdv(GATE_OFF);
    setOutcomes(null);
    setReported([]);
    setPrecheck({ busy: false, found: [] });
  };

  return (
    <Screen title={t('enroll.title')} onBack={onBack}>
      <ol className="steps" aria-label={t('enroll.title')}>
        {STEPS.map((s, i) => (
          <li key={s}>
            <button type="button" className={s === step ? 'on' : i < index ? 'done' : ''} aria-current={s === step ? 'step' : undefined}
              disabled={!idValid && s !== 'id'} onClick={() => setStep(s)} data-testid={`step-${s}`}>
              {t(`enroll.step.${s}` as MessageKey)}
            </button>
          </li>
        ))}
      </ol>

      {step === 'id' && (
        <form className="stack" onSubmit={(e) => { e.preventDefault(); if (idValid) next(); }}>
          <label className="field">
            <span>{t('enroll.extId')}</span>
            <input value={extId} onChange={(e) => setExtId(e.target.value)} aria-invalid={extId !== '' && !idValid} data-testid="enroll-extid" autoFocus />
            <small className={extId !== '' && !idValid ? 'bad-text' : 'muted'}>{extId !== '' && !idValid ? t('enroll.extId.invalid') : t('enroll.extId.hint')}</small>
          </label>
          <button type="submit" className="btn btn-primary btn-large" disabled={!idValid} data-testid="enroll-next">{t('app.next')}</button>
        </form>
      )}
      {step === 'face' && (
        <div className="stack">
          <FaceCapture value={face} onChange={setFace} testId="enroll-face" livenessFrames={liveness ? LIVENESS_FRAMES.count : 0} />
          <LivenessToggle value={liveness} onChange={setLiveness} />
          <AdvancedLivenessOption inputs={[extId, face]} gate={adv} onGate={setAdv} />
          <StepButtons onNext={next} canNext={face !== null} t={t} />
        </div>
      )}
      {step === 'finger' && (
        <div className="stack">
          <FingerCapture value={fingers} onChange={setFingers} testId="enroll-finger" />
          <StepButtons onNext={next} canNext={fingers.length > 0} t={t} />
        </div>
      )}
      {step === 'document' && (
        <div className="stack">
          <CnhReader value={doc} onChange={setDoc} selfie={face?.base64 ?? null} />
          <StepButtons onNext={next} canNext={doc !== null} t={t} />
        </div>
      )}
      {step === 'confirm' && (
        <div className="stack" data-testid="enroll-summary">
          <h2>{t('enroll.summary')}</h2>
          <dl className="summary">
            <dt>{t('enroll.idLabel')}</dt>
            <dd><b data-testid="summary-extid">{extId}</b></dd>
            <dt>{t('modality.face')}</dt>
            <dd>{face ? <img className="thumb" src={face.dataUrl} alt="" /> : t('enroll.faceMissing')}</dd>
            <dt>{t('enroll.fingers')}</dt>
            <dd>{fingers.length ? fingers.map((f, i) => <img key={i} className="thumb" src={f.dataUrl} alt="" />) : '—'}</dd>
            {doc && (
              <>
                <dt>{t('enroll.document')}</dt>
                <dd className="summary-doc" data-testid="summary-document">
                  {doc.imageUrl && <img className="thumb" src={doc.imageUrl} alt={t('doc.cardImage')} />}
                  <span>
                    <b>{doc.values.nome_completo ?? ''}</b>
                    {doc.values.cpf ? ` · CPF ${doc.values.cpf}` : ''}
                    {doc.values.data_nascimento ? ` · ${doc.values.data_nascimento}` : ''}
                    {doc.values.numero_cnh ? ` · CNH ${doc.values.numero_cnh}` : ''}
                    {doc.values.data_validade ? ` · ${t('enroll.docValid')} ${doc.values.data_validade}` : ''}
                    {isExpired(doc.values.data_validade) && <b className="bad-text" data-testid="summary-expired"> · {t('enroll.docExpired')}</b>}
                  </span>
                </dd>
                <dt>{t('doc.photo')}</dt>
                <dd data-testid="summary-photo"><PhotoCheck read={doc} selfie={face?.base64 ?? null} /></dd>
              </>
            )}
          </dl>
          {!face && fingers.length === 0 && <Notice kind="warn" title={t('enroll.nothing')} />}
          {!outcomes && precheck.busy && <Busy label={t('dedup.searching')} />}
          {!outcomes && <DuplicateList items={precheck.found} title={t('dedup.before')} testId="enroll-duplicates" />}
          {!outcomes && <LivenessBlock gate={adv} what="O cadastro" testId="enroll-liveness-block" />}
          {!outcomes && (
            <button type="button" className="btn btn-primary btn-large" disabled={busy || precheck.busy || advBlocked || (!face && fingers.length === 0)} onClick={() => void confirm()} data-testid="enroll-confirm">
              {precheck.found.length ? t('dedup.confirmAnyway') : t('enroll.confirm')}
            </button>
          )}
          {busy && <Busy />}
          {outcomes && (
            <Notice
              kind={outcomes.every((o) => o.ok) ? 'success' : 'error'}
              title={outcomes.every((o) => o.ok) ? t('enroll.done') : outcomes.some((o) => o.ok) ? t('enroll.partial') : t('enroll.none')}
              testId="enroll-result"
            >
              <ul className="outcomes">
                {outcomes.map((o, i) => (
                  <li key={i} className={o.ok ? 'ok-text' : 'bad-text'}>{o.ok ? '✓' : '✗'} {o.part}: {o.text}</li>
                ))}
              </ul>
              <div className="row">
                {/* Nothing was stored: the clerk may fix the captures and confirm again (a refused face is captured anew). */}
                {!outcomes.some((o) => o.ok) && (
                  <button type="button" className="btn btn-primary" onClick={retry} data-testid="enroll-retry">{t('enroll.retry')}</button>
                )}
                <button type="button" className="btn" onClick={reset}>{t('app.new')}</button>
              </div>
            </Notice>
          )}
          {outcomes && <DuplicateList items={reported} title={t('dedup.after')} testId="enroll-reported-duplicates" />}
        </div>
      )}
    </Screen>
  );
}

function StepButtons({ onNext, canNext, t }: { onNext: () => void; canNext: boolean; t: (k: MessageKey) => string }) {
  return (
    <div className="row">
      <button type="button" className="btn btn-primary btn-large" disabled={!canNext} onClick={onNext} data-testid="enroll-next">{t('app.next')}</button>
      <button type="button" className="btn btn-ghost" onClick={onNext} data-testid="enroll-skip">{t('app.skip')}</button>
    </div>
  );
}
