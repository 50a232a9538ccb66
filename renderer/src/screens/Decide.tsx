import { useRef, useState } from 'react';
import { api, isValidExtId, type Decision } from '../api.js';
import { GATE_OFF, livenessGateBlock, type LivenessGate } from '../advanced-liveness.js';
import { AdvancedLivenessOption, LivenessBlock } from '../components/AdvancedLiveness.js';
import { PersonDocumentLine } from '../components/PersonDocument.js';
import { ModalitySwitch, SampleInput, emptySample, sampleImage, type Modality, type Sample } from '../components/SampleInput.js';
import { Busy, ErrorNotice, Screen, Verdict, confidenceWord, useAction } from '../components/ui.js';
import { useI18n } from '../i18n/index.js';


/**
 * Verify (1:1): ext_id + a face or fingerprint capture -> confirmed or not. Any change of an input
 * (identifier, modality, capture, liveness switch) clears the verdict and the error, so a card never
 * speaks for inputs it was not computed from.
 */
export function Verify({ onBack }: { onBack: () => void }) {
  const { t } = useI18n();
  const [extId, setExtId] = useState('');
  const [modality, setModality] = useState<Modality>('face');
  const [sample, setSample] = useState<Sample>(emptySample);
  const [liveness, setLiveness] = useState(false);
  /** The "Vivacidade avançada" option: while on (face only), verification needs a live verdict for these inputs. */
  const [adv, setAdv] = useState<LivenessGate>(GATE_OFF);
  const advBlocked = modality === 'face' && livenessGateBlock(adv) !== null;
  const [result, setResult] = useState<Decision | null>(null);
  const generation = useRef(0);
  const action = useAction(async () => {
    if (advBlocked) return;
    setResult(null);
    const mine = ++generation.current;
    const image = sampleImage(sample, modality)!;
    const asked = extId;
    const decision = modality === 'face' ? await api.verifyFace(asked, image, liveness, sample.face?.frames) : await api.verifyFinger(asked, image, sample.finger[0]?.dpi);
    if (mine === generation.current) setResult({ ...decision, extId: asked });
  });
  const ready = isValidExtId(extId) && sampleImage(sample, modality) !== null;
  const clear = () => {
    generation.current++;
    setAdv((g) => (g.verdict ? { ...g, verdict: null } : g));
    setResult(null);
    action.setError(null);
  };
  return (
    <Screen title={t('verify.title')} onBack={onBack}>
      <div className="decide">
        <div className="stack">
          <label className="field">
            <span>{t('enroll.extId')}</span>
            <input value={extId} onChange={(e) => { setExtId(e.target.value); clear(); }} data-testid="verify-extid" autoFocus />
          </label>
          <ModalitySwitch value={modality} onChange={(m) => { setModality(m); clear(); }} />
          <SampleInput modality={modality} value={sample} onChange={(s) => { setSample(s); clear(); }} testId="verify" liveness={liveness} />
        </div>
        <div className="decide-side">
          {modality === 'face' && <LivenessToggle value={liveness} onChange={(v) => { setLiveness(v); clear(); }} />}
          {modality === 'face' && <AdvancedLivenessOption inputs={[extId, sample]} gate={adv} onGate={(g) => { generation.current++; setResult(null); setAdv(g); }} />}
          {modality === 'face' && <LivenessBlock gate={adv} what="A verificação" testId="verify-liveness-block" />}
          <button type="button" className="btn btn-primary btn-large" disabled={!ready || action.busy || advBlocked} onClick={() => void action.run()} data-testid="verify-submit">
            {t('verify.submit')}
          </button>
          {action.busy && <Busy />}
          <ErrorNotice error={action.error} />
          {result && (
            <Verdict decision={result} yes={t('verify.yes')} no={t('verify.no')} testId="verify-result">
              <p className="big-id">{result.extId ?? extId}</p>
              {result.matched && result.extId && <PersonDocumentLine extId={result.extId} />}
            </Verdict>
          )}
        </div>
      </div>
    </Screen>
  );
}

/** Identify (1:N): a capture -> the person found, or nobody; inputs changing clear the verdict. */
export function Identify({ onBack }: { onBack: () => void }) {
  const { t } = useI18n();
  const [modality, setModality] = useState<Modality>('face');
  const [sample, setSample] = useState<Sample>(emptySample);
  const [liveness, setLiveness] = useState(false);
  const [result, setResult] = useState<Decision | null>(null);
  const generation = useRef(0);
  const action = useAction(async () => {
    setResult(null);
    const image = sampleImage(sample, modality)!;
    const mine = ++generation.current;
    const decision = modality === 'face' ? await api.identifyFace(image, liveness, sample.face?.frames) : await api.identifyFinger(image, sample.finger[0]?.dpi);
    if (mine === generation.current) setResult(decision);
  });
  const clear = () => {
    generation.current++;
    setResult(null);
    action.setError(null);
  };
  return (
    <Screen title={t('identify.title')} onBack={onBack}>
      <div className="decide">
        <div className="stack">
          <ModalitySwitch value={modality} onChange={(m) => { setModality(m); clear(); }} />
          <SampleInput modality={modality} value={sample} onChange={(s) => { setSample(s); clear(); }} testId="identify" liveness={liveness} />
        </div>
        <div className="decide-side">
          {modality === 'face' && <LivenessToggle value={liveness} onChange={(v) => { setLiveness(v); clear(); }} />}
          <button type="button" className="btn btn-primary btn-large" disabled={!sampleImage(sample, modality) || action.busy} onClick={() => void action.run()} data-testid="identify-submit">
            {t('identify.submit')}
          </button>
          {action.busy && <Busy />}
          <ErrorNotice error={action.error} />
          {result && (
            <Verdict decision={{ ...result, matched: !!result.extId }} yes={t('identify.found')} no={t('identify.nobody')} testId="identify-result"
              after={result.candidates && result.candidates.length > 1 && (
                <div data-testid="identify-candidates">
                  <p>{t('identify.others')}</p>
                  <ul className="outcomes">
                    {result.candidates.slice(1).map((c) => (
                      <li key={c.extId}>
                        <b>{c.extId}</b> · {t('result.confidence')}: {t(`result.confidence.${confidenceWord(c.score, result.threshold, true, result.scoreScale) ?? 'low'}`)}
                      </li>
                    ))}
                  </ul>
                </div>
              )}>
              {result.extId && <p className="big-id" data-testid="identify-extid">{result.extId}</p>}
              {result.extId && <PersonDocumentLine extId={result.extId} />}
            </Verdict>
          )}
        </div>
      </div>
    </Screen>
  );
}

/** Compare two captures of one modality without enrollment. */
export function Compare({ onBack }: { onBack: () => void }) {
  const { t } = useI18n();
  const [modality, setModality] = useState<Modality>('face');
  const [a, setA] = useState<Sample>(emptySample);
  const [b, setB] = useState<Sample>(emptySample);
  const [result, setResult] = useState<Decision | null>(null);
  const action = useAction(async () => {
    setResult(null);
    const ia = sampleImage(a, modality)!;
    const ib = sampleImage(b, modality)!;
    setResult(modality === 'face' ? await api.compareFaces(ia, ib, false) : await api.compareFingers(ia, ib, a.finger[0]?.dpi, b.finger[0]?.dpi));
  });
  const ready = sampleImage(a, modality) !== null && sampleImage(b, modality) !== null;
  return (
    <Screen title={t('compare.title')} onBack={onBack}>
      <ModalitySwitch value={modality} onChange={(m) => { setModality(m); setResult(null); action.setError(null); }} />
      <div className="two-cols">
        <div>
          <h2>{t('compare.first')}</h2>
          <SampleInput modality={modality} value={a} onChange={(s) => { setA(s); setResult(null); action.setError(null); }} testId="compare-a" />
        </div>
        <div>
          <h2>{t('compare.second')}</h2>
          <SampleInput modality={modality} value={b} onChange={(s) => { setB(s); setResult(null); action.setError(null); }} testId="compare-b" />
        </div>
      </div>
      <button type="button" className="btn btn-primary btn-large" disabled={!ready || action.busy} onClick={() => void action.run()} data-testid="compare-submit">
        {t('compare.submit')}
      </button>
      {action.busy && <Busy />}
      <ErrorNotice error={action.error} />
      {result && <Verdict decision={result} yes={t('compare.same')} no={t('compare.different')} testId="compare-result" />}
    </Screen>
  );
}

/** The doLivenessCheck switch of face operations. */
export function LivenessToggle({ value, onChange }: { value: boolean; onChange: (v: boolean) => void }) {
  const { t } = useI18n();
  return (
    <label className="check">
      <input type="checkbox" checked={value} onChange={(e) => onChange(e.target.checked)} />
      <span>{t('liveness.check')}</span>
    </label>
  );
}
