/**
 * #/settings/{ceId}/answers: the widget's help center, on every plan. A tab beside Saved Replies because articles,
 * like saved replies, belong to one widget and are answers written ahead. Four views, each with its own address so
 * the browser's Back returns to the list: the articles (?language=…), the editor (?article=<id> or ?article=new),
 * the import (?view=import) and the synonyms (?view=synonyms).
 */
import { useSearchParams } from 'react-router-dom';
import type { SettingsTabProps } from '../types';
import { ArticleEditor } from './ArticleEditor';
import { ArticleImport } from './ArticleImport';
import { ArticleList } from './ArticleList';
import { Synonyms } from './Synonyms';

export default function AnswersTab(props: SettingsTabProps) {
  const [params, setParams] = useSearchParams();
  const article = params.get('article');
  const view = params.get('view');
  const go = (next: Record<string, string>) => {
    props.clearError();
    setParams(next);
    window.scrollTo({ top: 0 });
  };
  const toList = (language?: string) => go(language ? { language } : {});

  if (article !== null) {
    return (
      <ArticleEditor
        key={article}
        ceId={props.ce.Id}
        tags={props.ce.tags ?? []}
        articleId={article === 'new' ? null : article}
        newLanguage={params.get('language') ?? undefined}
        showError={props.showError}
        clearError={props.clearError}
        setDirty={props.setDirty}
        onDone={toList}
      />
    );
  }
  if (view === 'import') return <ArticleImport ceId={props.ce.Id} showError={props.showError} onDone={() => toList()} />;
  if (view === 'synonyms') return <Synonyms ceId={props.ce.Id} showError={props.showError} onDone={() => toList()} />;
  return (
    <ArticleList
      ceId={props.ce.Id}
      language={params.get('language') ?? ''}
      showError={props.showError}
      onLanguage={(language) => go(language ? { language } : {})}
      onOpen={(id, language) => go(id === 'new' && language ? { article: id, language } : { article: id })}
      onView={(v) => go({ view: v })}
    />
  );
}
