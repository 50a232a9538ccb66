import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { en, enErrors } from './en.js';
import { ptBR, ptBRErrors, type MessageKey } from './pt-BR.js';

export type Lang = 'pt-BR' | 'en';
export type { MessageKey };

const TABLES: Record<Lang, { ui: Record<MessageKey, string>; errors: Record<string, string> }> = {
  'pt-BR': { ui: ptBR, errors: ptBRErrors },
  en: { ui: en, errors: enErrors },
};

/** Every stable error code the UI has a message for (both languages hold the same set). */
export const KNOWN_ERROR_CODES = Object.keys(ptBRErrors);

interface I18n {
  lang: Lang;
  setLang(lang: Lang): void;
  /** Translates a key, replacing `{name}` placeholders. */
  t(key: MessageKey, vars?: Record<string, string | number>): string;
  /** The clerk-facing message of an API error code, or undefined when unknown. */
  errorText(code: string): string | undefined;
}

const Ctx = createContext<I18n | null>(null);

/** Provides the language (pt-BR by default; remembered in localStorage). */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(() => (localStorage.getItem('biostation.lang') === 'en' ? 'en' : 'pt-BR'));
  const setLang = useCallback((l: Lang) => {
    localStorage.setItem('biostation.lang', l);
    document.documentElement.lang = l;
    setLangState(l);
  }, []);
  const value = useMemo<I18n>(() => {
    const table = TABLES[lang];
    return {
      lang,
      setLang,
      t: (key, vars) => table.ui[key].replace(/\{(\w+)\}/g, (_, name: string) => String(vars?.[name] ?? '')),
      errorText: (code) => table.errors[code],
    };
  }, [lang, setLang]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/** The current language's translator. */
export function useI18n(): I18n {
  const value = useContext(Ctx);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
